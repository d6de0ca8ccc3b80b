import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import type { MessageKey } from '../shared/i18n/index.js';
import ActionEditPage from './pages/ActionEditPage.vue';
import ActionsPage from './pages/ActionsPage.vue';
import EventsPage from './pages/EventsPage.vue';
import GalleryPage from './pages/GalleryPage.vue';
import HomePage from './pages/HomePage.vue';
import PlaceholderPage from './pages/PlaceholderPage.vue';
import PrintPage from './pages/PrintPage.vue';

const placeholder = (path: string, titleKey: MessageKey): RouteRecordRaw => ({
  path,
  component: PlaceholderPage,
  props: { titleKey },
});

export const routes: RouteRecordRaw[] = [
  { path: '/admin', component: HomePage },
  { path: '/admin/actions', component: ActionsPage },
  { path: '/admin/actions/:number([1-9]\\d*)', component: ActionEditPage },
  { path: '/admin/events', component: EventsPage },
  { path: '/admin/gallery', component: GalleryPage },
  { path: '/admin/print', component: PrintPage },
  placeholder('/admin/hardware', 'nav.hardware'),
  placeholder('/admin/dashboard', 'nav.dashboard'),
  { path: '/admin/:rest(.*)*', redirect: '/admin' },
];

export const router = createRouter({ history: createWebHistory('/'), routes });
