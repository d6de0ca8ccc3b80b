import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

const serialized = new WeakMap<object, { body: string; etag: string }>();

/**
 * Sends a value that a service hands out again and again (a cached page) as JSON, serialised
 * and tagged once per value instead of once per request; a matching If-None-Match gets a 304.
 */
export function sendSharedJson(req: Request, res: Response, value: object): void {
  let entry = serialized.get(value);
  if (!entry) {
    const body = JSON.stringify(value);
    entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    serialized.set(value, entry);
  }
  res.setHeader('ETag', entry.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(entry.body);
}
