import type { AdminKey } from '../contract/session.contract.js';

/**
 * What a request needs: `public` (no session: signing in, the first PIN), `event` (any session:
 * the renter's key or the owner's), `owner` (a session holding the owner's key right now).
 */
export type RouteKey = 'public' | AdminKey;

/**
 * THE table of which key each /api/admin route needs, paths relative to /api/admin, written as
 * Express declares them. A route missing here is refused (fail closed): 403 `route_key_undeclared`
 * for a real route, 404 otherwise, and the route walk of test/api/route-keys.test.ts fails.
 * docs/security.md explains the choices; docs/api.md repeats the key beside each route.
 */
export const ADMIN_ROUTE_KEYS: Readonly<Record<string, RouteKey>> = {
  // Sessions (server/auth/auth.router.ts)
  'GET /session': 'public',
  'POST /session': 'public',
  'DELETE /session': 'public',
  'POST /session/pin': 'public', // the first run, on the booth itself (loopback) only
  'POST /session/elevate': 'event',
  'POST /session/drop': 'event',
  'PUT /session/pin': 'owner',
  'PUT /session/event-pin': 'owner',
  'DELETE /session/event-pin': 'owner',

  // The booth at a glance, the live stream, the gallery's address
  'GET /status': 'event',
  'GET /dashboard/status': 'event',
  'GET /logs': 'event',
  'GET /stream': 'event',
  'GET /gallery-link': 'event',

  // Actions and presets: what the booth does
  'GET /actions': 'owner',
  'POST /actions/create': 'owner',
  'PUT /actions/reorder': 'owner',
  'POST /actions/:idx/clone': 'owner',
  'PUT /actions/:idx': 'owner',
  'DELETE /actions/:idx': 'owner',
  'GET /actions/presets': 'owner',
  'POST /actions/presets': 'owner',
  'POST /actions/presets/:id/restore': 'owner',
  'DELETE /actions/presets/:id': 'owner',
  'GET /userfiles': 'owner',
  'GET /userfiles/preview': 'owner',

  // Settings: reading is the event key's; a change is checked field by field (settings.keys.ts)
  'GET /settings': 'event',
  'PUT /settings': 'event',

  // Maintenance
  'GET /system/capture-restart': 'event',
  'POST /system/capture-restart': 'event',
  'POST /system/capture-restart/now': 'event',
  'GET /capture/jobs': 'event',
  'POST /capture/jobs/seen': 'event',
  'POST /system/restart-capture-app': 'event',
  'POST /system/restart-boothdeck': 'owner',
  'POST /system/reboot': 'owner',
  'GET /backup': 'owner',
  'POST /backup': 'owner',

  // Events and galleries
  'GET /events': 'event',
  'POST /events': 'event',
  'POST /events/:slug/reopen': 'event', // the renter brings back an event archived by mistake
  'GET /events/:slug/export.zip': 'event',
  'GET /events/:slug/export/progress/:token': 'event',
  'GET /photos': 'event',
  'DELETE /photos/:id': 'event',
  'GET /photos/:id/thumb': 'event',
  'GET /photos/:id/preview': 'event',
  'GET /photos/:id/media': 'event',
  'GET /photos/:id/download': 'event',

  // Printing: the queue and the counters; the limits are settings (print.enable, print.limits)
  'POST /photos/:id/print': 'event',
  'GET /print/queue': 'event',
  'GET /print/summary': 'event',
  'GET /print/printers': 'event',
  'GET /print/glance': 'event',
  'GET /print/papers': 'event',
  'POST /print/printer/resume': 'event', // paper refilled: the renter brings printing back
  'POST /print/test-page': 'event',
  'POST /print/jobs/:id/count': 'event',
  'POST /print/jobs/:id/cancel': 'event',
  'POST /print/jobs/:id/retry': 'event',
  'POST /print/queue/clear': 'event',
  'POST /print/counters/reset': 'event',

  // Hardware: the board's pins, the light, the ring
  'GET /hardware/diagnostic': 'owner',
  'POST /hardware/test/flash': 'owner',
  'POST /hardware/test/relay': 'owner',
  'POST /hardware/test/led': 'owner',
  'POST /hardware/test/countdown': 'owner',

  // Online galleries: an event goes online with the renter's key; where to, and its secrets, are the owner's
  'GET /publish': 'event',
  'POST /publish/events/:slug': 'event',
  'DELETE /publish/events/:slug': 'event',
  'PUT /publish/events/:slug': 'event', // the take-down date of the renter's own event
  'DELETE /publish/leftovers/:id': 'owner',
  'GET /publish/settings': 'owner',
  'PUT /publish/settings': 'owner',
  'POST /publish/test': 'owner',
  'PUT /publish/logo': 'owner',
  'DELETE /publish/logo': 'owner',
  'GET /publish/company-index.html': 'owner',
};
