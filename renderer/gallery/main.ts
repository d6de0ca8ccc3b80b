import { createPinia } from 'pinia';
import { createApp } from 'vue';
import '../shared/styles/base.css';
import { primeLazySrc } from '../shared/directives/lazy-src.js';
import { followBrowserLanguage } from '../shared/i18n/index.js';
import App from './App.vue';
import { galleryService } from './services/gallery.service.js';

followBrowserLanguage();
primeLazySrc(galleryService.shownThumbs());
createApp(App).use(createPinia()).mount('#app');
