import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import ActionEditPage from './pages/ActionEditPage.vue';
import ActionsPage from './pages/ActionsPage.vue';
import DashboardPage from './pages/DashboardPage.vue';
import EventsPage from './pages/EventsPage.vue';
import GalleryPage from './pages/GalleryPage.vue';
import HardwarePage from './pages/HardwarePage.vue';
import HomePage from './pages/HomePage.vue';
import PrintPage from './pages/PrintPage.vue';

export const routes: RouteRecordRaw[] = [
  { path: '/admin', component: HomePage },
  { path: '/admin/actions', component: ActionsPage },
  { path: '/admin/actions/:number([1-9]\\d*)', component: ActionEditPage },
  { path: '/admin/events', component: EventsPage },
  { path: '/admin/gallery', component: GalleryPage },
  { path: '/admin/print', component: PrintPage },
  { path: '/admin/hardware', component: HardwarePage },
  { path: '/admin/dashboard', component: DashboardPage },
  { path: '/admin/:rest(.*)*', redirect: '/admin' },
];

export const router = createRouter({ history: createWebHistory('/'), routes });
