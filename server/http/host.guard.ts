import os from 'node:os';
import type { RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import { ForbiddenError } from '../core/errors.js';

/**
 * Host names under which the console may be reached: loopback, the booth's own addresses and
 * names, and the configured public address. Anything else in Host is a page of another site
 * resolved to the booth (DNS rebinding): it must not reach the admin API nor the first run.
 */
export type AllowedHosts = () => Iterable<string>;

const normalise = (host: string): string => host.trim().toLowerCase().replace(/\.$/, '');

/** The host part of a Host header: `[::1]:8080` → `::1`, `booth.local:80` → `booth.local`. */
export function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (bracketed) return normalise(bracketed[1] ?? '');
  const plain = /^([^:]+)(?::\d+)?$/.exec(header);
  return plain ? normalise(plain[1] ?? '') : undefined;
}

function isLoopbackName(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(host)) return false;
  const parsed = ipaddr.process(host);
  return parsed.range() === 'loopback';
}

/** The booth's own interface addresses and names, read at each call (Wi-Fi comes and goes). */
export function boothHosts(publicUrl: () => string | null): string[] {
  const names = [os.hostname(), `${os.hostname()}.local`];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) names.push(entry.address.replace(/%.*$/, ''));
  }
  const configured = publicUrl();
  if (configured) {
    try {
      names.push(new URL(configured).hostname.replace(/^\[|\]$/g, ''));
    } catch {
      /* an unparsable address allows nothing */
    }
  }
  return names.map(normalise);
}

export function hostGuard(allowed: AllowedHosts): RequestHandler {
  return (req, _res, next) => {
    const host = hostName(req.headers.host);
    if (host && (isLoopbackName(host) || [...allowed()].includes(host))) return next();
    next(new ForbiddenError('This address is not one of the booth’s; open the console by the booth’s own address', 'host_not_allowed'));
  };
}
