import type request from 'supertest';

/** supertest parser that keeps a response's body as the bytes sent (images, videos, ZIPs). */
export const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
