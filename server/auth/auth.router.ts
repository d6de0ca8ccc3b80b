import { Router } from 'express';
import { parseInput } from '../http/validate.js';
import { clearSessionCookie, clientInfo, isLoopbackClient, sessionToken, setSessionCookie } from '../http/request-context.js';
import { requireAdmin } from './admin.guard.js';
import type { SessionStatus } from '../contract/session.contract.js';
import type { AuthService } from './auth.service.js';
import { changePinBody, initialPinBody, signInBody } from './auth.schema.js';

/** Mounted at /api/admin/session, before the admin guard: signing in must work signed out. */
export function authRouter(auth: AuthService, runtime: { simulator: boolean }): Router {
  const router = Router();

  router.get('/', (req, res) => {
    // The simulator flag rides along so the console can show its badge even on the keypad.
    const status: SessionStatus = { ...auth.status(sessionToken(req), isLoopbackClient(req)), simulator: runtime.simulator };
    res.json(status);
  });

  router.post('/', async (req, res) => {
    const { pin } = parseInput(signInBody, req.body);
    const token = await auth.signIn(pin, clientInfo(req));
    setSessionCookie(res, token, auth.sessionMaxAgeMs);
    res.status(204).end();
  });

  router.delete('/', (req, res) => {
    auth.signOut(sessionToken(req));
    clearSessionCookie(res);
    res.status(204).end();
  });

  router.post('/pin', async (req, res) => {
    const { pin } = parseInput(initialPinBody, req.body);
    const token = await auth.setInitialPin(pin, isLoopbackClient(req));
    setSessionCookie(res, token, auth.sessionMaxAgeMs);
    res.status(204).end();
  });

  router.put('/pin', requireAdmin(auth), async (req, res) => {
    const body = parseInput(changePinBody, req.body);
    await auth.changePin(sessionToken(req) ?? '', body.current_pin, body.new_pin, clientInfo(req));
    res.status(204).end();
  });

  return router;
}
