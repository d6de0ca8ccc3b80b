import net from 'node:net';

/** What a phone keeps of an answer: its status and its cookies. The body is read and dropped. */
export interface PhoneResponse {
  status: number;
  setCookies: string[];
}

type Body = { kind: 'length'; left: number } | { kind: 'chunked'; left: number; afterChunk: boolean } | { kind: 'until-close' };

interface Exchange {
  resolve(response: PhoneResponse): void;
  reject(error: Error): void;
  /** The live stream's events, block by block: the exchange then lasts as long as the connection. */
  onBlock?: (block: string) => void;
  onHead?: (response: PhoneResponse) => void;
  /** Whether any byte of the answer came: a kept connection the booth closed first can be retried. */
  answered: boolean;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');
/** An answer's head larger than this is not an answer the booth would send. */
const MAX_HEAD = 16 * 1024;

/**
 * One HTTP/1.1 connection of a phone's browser, over a plain socket: one request at a time, kept
 * open for the next while the booth keeps it (a browser's keep-alive). It parses what it must to
 * know where an answer ends (a length or chunks) and keeps its status and cookies; a live stream's
 * chunks are decoded and cut into events. The bench's phones cost the cores a fraction of what
 * Node's http client does, and the booth sees the same requests.
 */
export class PhoneConnection {
  private readonly socket: net.Socket;
  private readonly host: string;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private exchange: Exchange | undefined;
  private head: PhoneResponse | undefined;
  private body: Body | undefined;
  private closeAfter = false;
  private closed = false;
  private text = '';
  private readonly closers: (() => void)[] = [];

  constructor(target: URL, localAddress: string) {
    this.host = target.host;
    this.socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress });
    this.socket.on('data', (chunk: Buffer) => this.received(chunk));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => this.gone());
  }

  /** Free for the next request: open, idle, and not told to close. */
  get usable(): boolean {
    return !this.closed && !this.closeAfter && !this.exchange;
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closers.push(listener);
  }

  destroy(): void {
    this.socket.destroy();
  }

  get(path: string, cookie: string): Promise<PhoneResponse & { retryable: boolean }> {
    return new Promise((resolve, reject) => {
      const exchange: Exchange = {
        resolve: (r) => resolve({ ...r, retryable: false }),
        reject: (e) => reject(Object.assign(e, { retryable: !exchange.answered })),
        answered: false,
      };
      this.send(path, cookie, exchange);
    });
  }

  stream(path: string, cookie: string, onHead: (response: PhoneResponse) => void, onBlock: (block: string) => void): void {
    this.send(path, cookie, { resolve: () => undefined, reject: () => undefined, onHead, onBlock, answered: false });
  }

  private send(path: string, cookie: string, exchange: Exchange): void {
    if (this.closed) {
      exchange.reject(new Error('connection closed'));
      return;
    }
    this.exchange = exchange;
    const cookieLine = cookie ? `Cookie: ${cookie}\r\n` : '';
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: ${this.host}\r\nAccept: */*\r\n${cookieLine}\r\n`, 'latin1');
  }

  private gone(): void {
    this.closed = true;
    const exchange = this.exchange;
    this.exchange = undefined;
    if (exchange && this.body?.kind === 'until-close' && this.head) exchange.resolve(this.head);
    else exchange?.reject(new Error('connection closed'));
    for (const listener of this.closers.splice(0)) listener();
  }

  private received(chunk: Buffer): void {
    if (this.exchange) this.exchange.answered = true;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    let data = this.pending.length === 1 ? chunk : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (;;) {
      const used = this.body ? this.readBody(data) : this.readHead(data);
      if (used < 0) break;
      data = data.subarray(used);
      if (used === 0 && data.length === 0) break;
    }
    if (data.length > 0) {
      this.pending.push(data);
      this.pendingBytes = data.length;
    }
  }

  /** Bytes taken by the answer's head, or -1 while it is not whole. */
  private readHead(data: Buffer): number {
    const at = data.indexOf(HEAD_END);
    if (at < 0) {
      if (data.length > MAX_HEAD) this.socket.destroy();
      return -1;
    }
    const lines = data.toString('latin1', 0, at).split('\r\n');
    const status = Number(lines[0]?.split(' ')[1]);
    const setCookies: string[] = [];
    let length: number | undefined;
    let chunked = false;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
      else if (name === 'set-cookie') setCookies.push(value);
      else if (name === 'connection') this.closeAfter = value.toLowerCase() === 'close';
    }
    this.head = { status, setCookies };
    this.exchange?.onHead?.(this.head);
    this.body = chunked
      ? { kind: 'chunked', left: -1, afterChunk: false }
      : length !== undefined
        ? { kind: 'length', left: length }
        : this.exchange?.onBlock
          ? { kind: 'until-close' }
          : { kind: 'length', left: 0 };
    if (this.body.kind === 'length' && this.body.left === 0) this.finish();
    return at + HEAD_END.length;
  }

  /** Bytes of the body taken, or -1 when more must come. */
  private readBody(data: Buffer): number {
    const body = this.body as Body;
    if (body.kind === 'until-close') {
      this.decoded(data);
      return data.length || -1;
    }
    if (body.kind === 'length') {
      const take = Math.min(body.left, data.length);
      body.left -= take;
      if (body.left === 0) this.finish();
      return take || -1;
    }
    if (body.afterChunk) {
      if (data.length < 2) return -1;
      body.afterChunk = false;
      return 2;
    }
    if (body.left < 0) {
      const at = data.indexOf(LINE_END);
      if (at < 0) return -1;
      const size = parseInt(data.toString('latin1', 0, at), 16);
      if (!Number.isFinite(size)) {
        this.socket.destroy();
        return -1;
      }
      if (size === 0) {
        // The last chunk; no trailers come from the booth, only the final line end.
        if (data.length < at + 4) return -1;
        this.finish();
        return at + 4;
      }
      body.left = size;
      return at + 2;
    }
    const take = Math.min(body.left, data.length);
    this.decoded(data.subarray(0, take));
    body.left -= take;
    if (body.left === 0) {
      body.left = -1;
      body.afterChunk = true;
    }
    return take || -1;
  }

  /** A live stream's bytes, cut into events at their blank lines. */
  private decoded(bytes: Buffer): void {
    const onBlock = this.exchange?.onBlock;
    if (!onBlock) return;
    this.text += bytes.toString('utf8');
    for (let at = this.text.indexOf('\n\n'); at >= 0; at = this.text.indexOf('\n\n')) {
      onBlock(this.text.slice(0, at));
      this.text = this.text.slice(at + 2);
    }
  }

  private finish(): void {
    const exchange = this.exchange;
    const head = this.head as PhoneResponse;
    this.exchange = undefined;
    this.head = undefined;
    this.body = undefined;
    if (this.closeAfter) this.socket.end();
    exchange?.resolve(head);
  }
}
