import { createPinia } from 'pinia';
import { createApp } from 'vue';
import '../shared/styles/base.css';
import App from './App.vue';
import { router } from './router.js';

createApp(App).use(createPinia()).use(router).mount('#app');
