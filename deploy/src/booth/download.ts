import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/** The private store's helper, root's own copy (deploy/boothdeck-fetch): the token never reaches this user. */
export const FETCH_HELPER = '/usr/local/libexec/boothdeck/boothdeck-fetch';

/** A release store's address: HTTPS, or plain HTTP to this machine only (a local mirror, the tests). */
export function storeUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an address';
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) return undefined;
  return 'only https:// (or http:// to this machine) is allowed';
}

/**
 * A file of the release store, streamed, at most MAX bytes, with no more than IDLE ms between two
 * chunks: from an HTTPS folder (redirects followed, HTTPS only), or through the private store's
 * helper with sudo. Fails (the stream errors) as the download does.
 */
export function fetchFromStore(base: string, name: string, max: number, idleMs = 60_000): Readable {
  if (base === 'private') {
    const child = spawn('sudo', ['-n', FETCH_HELPER, name, String(max)], { stdio: ['ignore', 'pipe', 'ignore'] });
    const out = new Readable({ read() {} });
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        child.kill('SIGKILL');
        out.destroy(new Error(`more than ${max} bytes`));
      } else out.push(chunk);
    });
    child.on('error', (err) => out.destroy(err));
    child.on('close', (code) =>
      code === 0 ? out.push(null) : out.destroy(new Error(`the fetch helper failed (exit ${code ?? 'signal'})`)),
    );
    return out;
  }
  const out = new Readable({ read() {} });
  const get = (url: string, hops: number): void => {
    const problem = storeUrlProblem(url);
    if (problem) return void out.destroy(new Error(`${url}: ${problem}`));
    const client = url.startsWith('https:') ? https : http;
    const req = client.get(url, { timeout: idleMs }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && hops < 5) {
        res.resume();
        return get(new URL(res.headers.location, url).toString(), hops + 1);
      }
      if (status !== 200) {
        res.resume();
        return void out.destroy(new Error(`${name}: HTTP ${status}`));
      }
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          req.destroy();
          out.destroy(new Error(`more than ${max} bytes`));
        } else out.push(chunk);
      });
      res.on('end', () => out.push(null));
      res.on('error', (err) => out.destroy(err));
    });
    req.on('timeout', () => req.destroy(new Error(`no data for ${idleMs / 1000} s`)));
    req.on('error', (err) => out.destroy(err));
  };
  get(`${base.replace(/\/+$/, '')}/${name}`, 0);
  return out;
}

export async function fetchText(base: string, name: string, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of fetchFromStore(base, name, max)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
