/**
 * Reads rows of one table from a SQLite database file and its write-ahead log, without SQLite.
 *
 * The board's Node (Debian's 18) has no SQLite, and the deploy must work when no release (whose
 * better-sqlite3 is built for Electron) can run. It reads only what it needs: the migrations a
 * database holds and its waiting print jobs, from files copied or left while Boothdeck is stopped.
 * The WAL's committed frames are applied over the main file as SQLite itself would read them, so a
 * database left by a release that was killed (its WAL not checkpointed) reads as it was committed.
 * Anything it cannot read with certainty throws SqliteReadError: the caller then takes the safe
 * path (the database plan puts the snapshot back).
 *
 * Bounded whatever the files hold: pages are read one at a time from their source (a file is never
 * read whole), the WAL is scanned once keeping only where each page's newest frame is, a page
 * reached twice in a walk (a loop in a damaged or hostile file) stops it, and a row longer than
 * MAX_PAYLOAD, or than the database itself, is refused before anything is allocated for it.
 */

export class SqliteReadError extends Error {
  override name = 'SqliteReadError';
}

export type SqliteValue = null | number | bigint | string | Uint8Array;
export type SqliteRow = Record<string, SqliteValue>;

const HEADER = 'SQLite format 3\u0000';
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
/** The longest row read (a migration or a print job is a few hundred bytes). */
const MAX_PAYLOAD = 16 * 1024 * 1024;

/** Where the bytes of a file come from: read a range at a time (a buffer, or a file on disk). */
export interface ByteSource {
  readonly length: number;
  /** LENGTH bytes from AT (fewer at the end of the source). */
  read(at: number, length: number): Uint8Array;
}

export const bytesOf = (buf: Uint8Array): ByteSource => ({ length: buf.length, read: (at, length) => buf.subarray(at, at + length) });
const sourceOf = (file: Uint8Array | ByteSource): ByteSource => (file instanceof Uint8Array ? bytesOf(file) : file);

/** A varint and how many bytes it took. */
function varint(buf: Uint8Array, at: number): [bigint, number] {
  let value = 0n;
  for (let i = 0; i < 8; i++) {
    const byte = buf[at + i];
    if (byte === undefined) throw new SqliteReadError('truncated varint');
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  const last = buf[at + 8];
  if (last === undefined) throw new SqliteReadError('truncated varint');
  return [(value << 8n) | BigInt(last), 9];
}

const isHeader = (bytes: Uint8Array): boolean => new TextDecoder().decode(bytes.subarray(0, 16)) === HEADER;

const smallVarint = (buf: Uint8Array, at: number): [number, number] => {
  const [v, n] = varint(buf, at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new SqliteReadError('varint out of range');
  return [Number(v), n];
};

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

class Pages {
  readonly pageSize: number;
  readonly usable: number;
  readonly pageCount: number;
  /** Each page the WAL commits: where its newest committed frame's data starts. */
  private readonly fromWal = new Map<number, number>();
  private readonly wal: ByteSource | undefined;

  constructor(
    private readonly main: ByteSource,
    wal: ByteSource | undefined,
  ) {
    // A database whose every write is still in its WAL has no header in the main file yet: the
    // page size then comes from the WAL, and the header is read from page 1 as the WAL has it.
    const head = main.read(0, 100);
    const mainHasHeader = head.length >= 100 && isHeader(head);
    const walHead = wal?.read(0, 32);
    const walPageSize = walHead && walHead.length >= 32 ? view(walHead).getUint32(8) : 0;
    const raw = mainHasHeader ? view(head).getUint16(16) : walPageSize;
    this.pageSize = raw === 1 ? 65536 : raw;
    if (this.pageSize < 512 || this.pageSize > 65536 || (this.pageSize & (this.pageSize - 1)) !== 0) {
      throw new SqliteReadError('not a SQLite database');
    }
    const walSize = wal ? this.readWal(wal) : undefined;
    this.wal = wal;
    this.pageCount = walSize ?? Math.floor(main.length / this.pageSize);
    const first = this.page(1);
    if (!isHeader(first)) throw new SqliteReadError('not a SQLite database');
    const encoding = view(first).getUint32(56);
    if (encoding !== 0 && encoding !== 1) throw new SqliteReadError('not a UTF-8 database');
    this.usable = this.pageSize - (first[20] ?? 0);
  }

  /**
   * Scans the WAL's frames once, as SQLite's recovery does: each frame must carry the header's
   * salts and continue the checksum chain; the frames up to the last commit count (a checkpoint
   * that restarted the WAL left older frames behind, with other salts: they end the scan). Only
   * where each page's newest committed frame is gets kept. Answers the database size in pages
   * the last commit gives, if any.
   */
  private readWal(wal: ByteSource): number | undefined {
    const header = wal.read(0, 32);
    if (header.length < 32) return undefined;
    const h = view(header);
    const magic = h.getUint32(0);
    if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
    const bigEndian = magic === WAL_MAGIC_BE;
    const pageSize = h.getUint32(8);
    if (pageSize !== this.pageSize) throw new SqliteReadError('the WAL and the database disagree on the page size');
    const salt1 = h.getUint32(16);
    const salt2 = h.getUint32(20);
    let [s0, s1] = walChecksum(header, 0, 24, 0, 0, bigEndian);
    if (s0 !== h.getUint32(24) || s1 !== h.getUint32(28)) return undefined;
    const frameSize = 24 + pageSize;
    let pending = new Map<number, number>();
    let committedSize: number | undefined;
    for (let at = 32; at + frameSize <= wal.length; at += frameSize) {
      const frame = wal.read(at, frameSize);
      if (frame.length < frameSize) break;
      const f = view(frame);
      if (f.getUint32(8) !== salt1 || f.getUint32(12) !== salt2) break;
      [s0, s1] = walChecksum(frame, 0, 8, s0, s1, bigEndian);
      [s0, s1] = walChecksum(frame, 24, pageSize, s0, s1, bigEndian);
      if (s0 !== f.getUint32(16) || s1 !== f.getUint32(20)) break;
      pending.set(f.getUint32(0), at + 24);
      const commitSize = f.getUint32(4);
      if (commitSize !== 0) {
        for (const [page, data] of pending) this.fromWal.set(page, data);
        pending = new Map();
        committedSize = commitSize;
      }
    }
    return committedSize;
  }

  page(n: number): Uint8Array {
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount) throw new SqliteReadError(`page ${n} is outside the database`);
    const logged = this.fromWal.get(n);
    const bytes =
      logged !== undefined && this.wal ? this.wal.read(logged, this.pageSize) : this.main.read((n - 1) * this.pageSize, this.pageSize);
    if (bytes.length < this.pageSize) throw new SqliteReadError(`page ${n} is missing from the file`);
    return bytes;
  }
}

/** SQLite's WAL checksum over LEN bytes (a multiple of 8), continued from S0 and S1. */
function walChecksum(buf: Uint8Array, at: number, len: number, s0: number, s1: number, bigEndian: boolean): [number, number] {
  const v = view(buf);
  for (let i = at; i < at + len; i += 8) {
    s0 = (s0 + v.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + v.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

interface Cell {
  rowid: bigint;
  payload: Uint8Array;
}

/** Reads within a page, or a SqliteReadError (a damaged file points past its page). */
function u16(page: Uint8Array, at: number): number {
  if (at < 0 || at + 2 > page.length) throw new SqliteReadError('a pointer runs past its page');
  return view(page).getUint16(at);
}
function u32(page: Uint8Array, at: number): number {
  if (at < 0 || at + 4 > page.length) throw new SqliteReadError('a pointer runs past its page');
  return view(page).getUint32(at);
}

/** Every cell of a table's b-tree, in rowid order, with its whole payload (overflow followed). */
function tableCells(pages: Pages, root: number): Cell[] {
  const cells: Cell[] = [];
  const stack = [root];
  // In a b-tree each page has one parent: a page reached twice is a loop, which would never end.
  const reached = new Set([root]);
  // Depth-first, right-most child pushed first: leaves come out in rowid order.
  while (stack.length > 0) {
    const n = stack.pop()!;
    const page = pages.page(n);
    const base = n === 1 ? 100 : 0;
    const type = page[base];
    const count = u16(page, base + 3);
    if (type === 0x05) {
      const children: number[] = [];
      for (let i = 0; i < count; i++) children.push(u32(page, u16(page, base + 12 + 2 * i)));
      children.push(u32(page, base + 8));
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        if (reached.has(child)) throw new SqliteReadError(`page ${child} is reached twice: the table loops (damaged file?)`);
        reached.add(child);
        stack.push(child);
      }
    } else if (type === 0x0d) {
      for (let i = 0; i < count; i++) cells.push(leafCell(pages, page, u16(page, base + 8 + 2 * i)));
    } else {
      throw new SqliteReadError(`page ${n} is not a table page`);
    }
  }
  return cells;
}

function leafCell(pages: Pages, page: Uint8Array, at: number): Cell {
  const [size, a] = smallVarint(page, at);
  const [rowid, b] = varint(page, at + a);
  const start = at + a + b;
  const u = pages.usable;
  const x = u - 35;
  if (size > MAX_PAYLOAD || size > pages.pageCount * u) throw new SqliteReadError(`a row of ${size} bytes is longer than it can be`);
  if (size <= x) {
    if (start + size > page.length) throw new SqliteReadError('a row runs past its page');
    return { rowid, payload: page.subarray(start, start + size) };
  }
  const m = Math.floor(((u - 12) * 32) / 255) - 23;
  const k = m + ((size - m) % (u - 4));
  const local = k <= x ? k : m;
  const payload = new Uint8Array(size);
  payload.set(page.subarray(start, start + local));
  let filled = local;
  let next = u32(page, start + local);
  const reached = new Set<number>();
  while (filled < size) {
    if (next === 0 || reached.has(next)) throw new SqliteReadError('an overflow chain ends early, or loops');
    reached.add(next);
    const overflow = pages.page(next);
    const take = Math.min(u - 4, size - filled);
    payload.set(overflow.subarray(4, 4 + take), filled);
    filled += take;
    next = u32(overflow, 0);
  }
  return { rowid, payload };
}

/** The values of a record, in column order. */
function recordValues(payload: Uint8Array): SqliteValue[] {
  const [headerSize, first] = smallVarint(payload, 0);
  const types: number[] = [];
  for (let at = first; at < headerSize;) {
    const [t, n] = smallVarint(payload, at);
    types.push(t);
    at += n;
  }
  const record = view(payload);
  const values: SqliteValue[] = [];
  let at = headerSize;
  const int = (bytes: number): number | bigint => {
    if (at + bytes > payload.length) throw new SqliteReadError('a value runs past its record');
    let v = 0n;
    for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(payload[at + i] ?? 0);
    if (payload[at] !== undefined && payload[at]! & 0x80) v -= 1n << BigInt(bytes * 8);
    at += bytes;
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  };
  for (const t of types) {
    if (t === 0) values.push(null);
    else if (t >= 1 && t <= 4) values.push(int(t));
    else if (t === 5) values.push(int(6));
    else if (t === 6) values.push(int(8));
    else if (t === 7) {
      if (at + 8 > payload.length) throw new SqliteReadError('a value runs past its record');
      values.push(record.getFloat64(at));
      at += 8;
    } else if (t === 8) values.push(0);
    else if (t === 9) values.push(1);
    else if (t >= 12) {
      const len = Math.floor((t - (t % 2 === 0 ? 12 : 13)) / 2);
      if (at + len > payload.length) throw new SqliteReadError('a value runs past its record');
      const bytes = payload.subarray(at, at + len);
      values.push(t % 2 === 0 ? bytes.slice() : new TextDecoder().decode(bytes));
      at += len;
    } else throw new SqliteReadError(`unknown serial type ${t}`);
  }
  return values;
}

/**
 * The column names of a CREATE TABLE statement, in order, and which one (if any) is the rowid's
 * alias (an INTEGER PRIMARY KEY, stored as NULL in the record).
 */
export function tableColumns(sql: string): { columns: string[]; rowidAlias: string | undefined } {
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open < 0 || close < open) throw new SqliteReadError('cannot read the table definition');
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  let quote = '';
  for (const ch of sql.slice(open + 1, close)) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '[') quote = ']';
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const columns: string[] = [];
  const types = new Map<string, string>();
  let rowidAlias: string | undefined;
  let tableKey: string | undefined;
  for (const raw of parts) {
    const part = raw.replace(/--[^\n]*/g, ' ').trim();
    const key = /^PRIMARY\s+KEY\s*\(\s*["`[]?([A-Za-z_][A-Za-z0-9_]*)["`\]]?\s*(ASC)?\s*\)/i.exec(part);
    if (key) tableKey = key[1];
    if (/^(CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY)\b/i.test(part)) continue;
    const match = /^("([^"]+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_]*))\s*(.*)$/s.exec(part);
    if (!match) continue;
    const name = match[2] ?? match[3] ?? match[4] ?? match[5]!;
    const rest = match[6] ?? '';
    columns.push(name);
    types.set(name.toLowerCase(), rest);
    // An INTEGER PRIMARY KEY is the rowid itself (stored as NULL in the record), unless DESC.
    if (/^INTEGER\s+PRIMARY\s+KEY\b(?!\s+DESC)/i.test(rest)) rowidAlias = name;
  }
  if (tableKey && !rowidAlias && /^INTEGER\b/i.test(types.get(tableKey.toLowerCase()) ?? '')) {
    rowidAlias = columns.find((c) => c.toLowerCase() === tableKey.toLowerCase());
  }
  return { columns, rowidAlias };
}

/** A database's files: the main file and its WAL (absent when there is none), whole or read as needed. */
export interface SqliteFiles {
  main: Uint8Array | ByteSource;
  wal?: Uint8Array | ByteSource | undefined;
}

/**
 * Every row of TABLE, each as column name to value; undefined when the database has no such table.
 * A column added after a row was written (ALTER TABLE ADD COLUMN) reads as null in that row.
 */
export function readTable(files: SqliteFiles, table: string): SqliteRow[] | undefined {
  const pages = new Pages(sourceOf(files.main), files.wal === undefined ? undefined : sourceOf(files.wal));
  let root: number | undefined;
  let sql = '';
  for (const cell of tableCells(pages, 1)) {
    const [type, name, , rootpage, text] = recordValues(cell.payload);
    if (type === 'table' && typeof name === 'string' && name.toLowerCase() === table.toLowerCase()) {
      root = typeof rootpage === 'number' ? rootpage : undefined;
      sql = typeof text === 'string' ? text : '';
    }
  }
  if (root === undefined) return undefined;
  if (/\bWITHOUT\s+ROWID\b/i.test(sql.slice(sql.lastIndexOf(')')))) throw new SqliteReadError(`${table} is a WITHOUT ROWID table`);
  const { columns, rowidAlias } = tableColumns(sql);
  return tableCells(pages, root).map((cell) => {
    const values = recordValues(cell.payload);
    const row: SqliteRow = {};
    columns.forEach((name, i) => {
      const value = values[i] ?? null;
      row[name] = name === rowidAlias ? (cell.rowid <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cell.rowid) : cell.rowid) : value;
    });
    return row;
  });
}
