import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';
import { galleryFirstScreen } from './scripts/build/gallery-first-screen.js';
import { precompress } from './scripts/build/precompress.js';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/** Two front ends from one build: the admin console and the public gallery. */
export default defineConfig({
  root: here('./renderer'),
  base: '/',
  plugins: [vue(), galleryFirstScreen(), precompress()],
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    rolldownOptions: {
      input: {
        admin: here('./renderer/admin/index.html'),
        gallery: here('./renderer/gallery/index.html'),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' },
  },
});
