import { createRouter, createWebHistory, type RouteRecordRaw } from 'vue-router';
import ActionEditPage from './pages/ActionEditPage.vue';
import ActionsPage from './pages/ActionsPage.vue';
import DashboardPage from './pages/DashboardPage.vue';
import EventsPage from './pages/EventsPage.vue';
import GalleryPage from './pages/GalleryPage.vue';
import HardwarePage from './pages/HardwarePage.vue';
import HomePage from './pages/HomePage.vue';
import PrintPage from './pages/PrintPage.vue';
import { useOwnerKeyStore } from './stores/owner-key.store.js';
import { useSessionStore } from './stores/session.store.js';

declare module 'vue-router' {
  interface RouteMeta {
    /** The page needs the owner's key: asked for in place, over the page the operator is on. */
    ownerKey?: boolean;
  }
}

export const routes: RouteRecordRaw[] = [
  { path: '/admin', component: HomePage },
  { path: '/admin/actions', component: ActionsPage, meta: { ownerKey: true } },
  { path: '/admin/actions/:number([1-9]\\d*)', component: ActionEditPage, meta: { ownerKey: true } },
  { path: '/admin/events', component: EventsPage },
  { path: '/admin/gallery', component: GalleryPage },
  { path: '/admin/print', component: PrintPage },
  { path: '/admin/hardware', component: HardwarePage, meta: { ownerKey: true } },
  { path: '/admin/dashboard', component: DashboardPage },
  { path: '/admin/:rest(.*)*', redirect: '/admin' },
];

export const router = createRouter({ history: createWebHistory('/'), routes });

// An owner-only page opens only once the session holds the owner's key; dismissed, the operator stays where they were.
router.beforeEach(async (to) => {
  const session = useSessionStore();
  if (!to.meta.ownerKey || session.phase !== 'unlocked' || session.isOwner) return true;
  return useOwnerKeyStore().ask();
});
