import { Router } from 'express';
import { parseInput } from '../http/validate.js';
import { clearSessionCookie, clientInfo, isLoopbackClient, sessionToken, setSessionCookie } from '../http/request-context.js';
import type { SessionStatus } from '../contract/session.contract.js';
import type { AuthService } from './auth.service.js';
import { changePinBody, eventPinBody, initialPinBody, signInBody } from './auth.schema.js';

/**
 * Mounted at /api/admin/session, behind the key guard like every admin route: signing in is
 * declared public there, the PINs' changes need the owner's key (server/auth/route-keys.ts).
 */
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

  router.put('/pin', async (req, res) => {
    const body = parseInput(changePinBody, req.body);
    await auth.changePin(sessionToken(req) ?? '', body.current_pin, body.new_pin, clientInfo(req));
    res.status(204).end();
  });

  router.post('/elevate', async (req, res) => {
    const { pin } = parseInput(signInBody, req.body);
    await auth.elevate(sessionToken(req), pin, clientInfo(req));
    res.status(204).end();
  });

  router.post('/drop', (req, res) => {
    auth.dropOwner(sessionToken(req));
    res.status(204).end();
  });

  router.put('/event-pin', async (req, res) => {
    const { pin } = parseInput(eventPinBody, req.body);
    await auth.setEventPin(sessionToken(req) ?? '', pin);
    res.status(204).end();
  });

  router.delete('/event-pin', (req, res) => {
    auth.clearEventPin(sessionToken(req) ?? '');
    res.status(204).end();
  });

  return router;
}
