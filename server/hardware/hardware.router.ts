import { Router } from 'express';
import { parseInput } from '../http/validate.js';
import { countdownTestBody, diagnosticQuery, ledTestBody, relayTestBody } from './hardware.schema.js';
import type { HardwareService } from './hardware.service.js';

/** /api/admin/hardware: the live diagnostic and the test buttons. */
export function hardwareRouter(hardware: HardwareService): Router {
  const router = Router();
  router.get('/diagnostic', (req, res) => {
    const { since } = parseInput(diagnosticQuery, req.query, 'query');
    res.json(hardware.diagnostic(since));
  });
  router.post('/test/flash', (_req, res) => {
    hardware.testFlash();
    res.status(204).end();
  });
  router.post('/test/relay', (req, res) => {
    hardware.testRelay(parseInput(relayTestBody, req.body ?? {}).ms);
    res.status(204).end();
  });
  router.post('/test/led', (req, res) => {
    hardware.testLed(parseInput(ledTestBody, req.body ?? {}).color);
    res.status(204).end();
  });
  router.post('/test/countdown', (req, res) => {
    hardware.testCountdown(parseInput(countdownTestBody, req.body ?? {}).seconds);
    res.status(204).end();
  });
  return router;
}
