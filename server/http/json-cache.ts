import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

const serialized = new WeakMap<object, { body: Buffer; etag: string }>();

/** Whether an If-None-Match header names `etag` (or `*`), weak tags included as HTTP says. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a value that a service hands out again and again (a cached page) as JSON: serialised,
 * encoded and tagged once per value, not once per request, and written with one call (no
 * conversion, no second freshness check as Express's send makes). A matching If-None-Match gets a 304.
 */
export function sendSharedJson(req: Request, res: Response, value: object): void {
  let entry = serialized.get(value);
  if (!entry) {
    const body = Buffer.from(JSON.stringify(value));
    entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    serialized.set(value, entry);
  }
  res.setHeader('ETag', entry.etag);
  if (matches(req.headers['if-none-match'], entry.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', entry.body.length);
  res.end(entry.body);
}
