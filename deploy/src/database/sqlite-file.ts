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
 */

export class SqliteReadError extends Error {
  override name = 'SqliteReadError';
}

export type SqliteValue = null | number | bigint | string | Uint8Array;
export type SqliteRow = Record<string, SqliteValue>;

const HEADER = 'SQLite format 3\u0000';
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
/** Pages visited at most in one table walk: a loop in a damaged file ends here. */
const MAX_PAGES_VISITED = 1_000_000;

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

class Pages {
  readonly pageSize: number;
  readonly usable: number;
  private readonly pageCount: number;
  private readonly fromWal = new Map<number, Uint8Array>();

  constructor(
    private readonly main: Uint8Array,
    wal: Uint8Array | undefined,
  ) {
    // A database whose every write is still in its WAL has no header in the main file yet: the
    // page size then comes from the WAL, and the header is read from page 1 as the WAL has it.
    const mainHasHeader = main.length >= 100 && isHeader(main);
    const walPageSize = wal && wal.length >= 32 ? new DataView(wal.buffer, wal.byteOffset, wal.byteLength).getUint32(8) : 0;
    const raw = mainHasHeader ? new DataView(main.buffer, main.byteOffset, main.byteLength).getUint16(16) : walPageSize;
    this.pageSize = raw === 1 ? 65536 : raw;
    if (this.pageSize < 512 || this.pageSize > 65536 || (this.pageSize & (this.pageSize - 1)) !== 0) {
      throw new SqliteReadError('not a SQLite database');
    }
    const walSize = wal ? this.readWal(wal) : undefined;
    this.pageCount = walSize ?? Math.floor(main.length / this.pageSize);
    const first = this.page(1);
    if (!isHeader(first)) throw new SqliteReadError('not a SQLite database');
    const view = new DataView(first.buffer, first.byteOffset, first.byteLength);
    const encoding = view.getUint32(56);
    if (encoding !== 0 && encoding !== 1) throw new SqliteReadError('not a UTF-8 database');
    this.usable = this.pageSize - (first[20] ?? 0);
  }

  /** Applies the WAL's committed frames; answers the database size in pages it commits, if any. */
  private readWal(wal: Uint8Array): number | undefined {
    if (wal.length < 32) return undefined;
    const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
    const magic = view.getUint32(0);
    if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
    const bigEndian = magic === WAL_MAGIC_BE;
    const pageSize = view.getUint32(8);
    if (pageSize !== this.pageSize) throw new SqliteReadError('the WAL and the database disagree on the page size');
    const salt1 = view.getUint32(16);
    const salt2 = view.getUint32(20);
    let [s0, s1] = walChecksum(wal, 0, 24, 0, 0, bigEndian);
    if (s0 !== view.getUint32(24) || s1 !== view.getUint32(28)) return undefined;
    const frameSize = 24 + pageSize;
    let pending = new Map<number, Uint8Array>();
    let committedSize: number | undefined;
    for (let at = 32; at + frameSize <= wal.length; at += frameSize) {
      if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
      [s0, s1] = walChecksum(wal, at, 8, s0, s1, bigEndian);
      [s0, s1] = walChecksum(wal, at + 24, pageSize, s0, s1, bigEndian);
      if (s0 !== view.getUint32(at + 16) || s1 !== view.getUint32(at + 20)) break;
      pending.set(view.getUint32(at), wal.subarray(at + 24, at + frameSize));
      const commitSize = view.getUint32(at + 4);
      if (commitSize !== 0) {
        for (const [page, data] of pending) this.fromWal.set(page, data);
        pending = new Map();
        committedSize = commitSize;
      }
    }
    return committedSize;
  }

  page(n: number): Uint8Array {
    if (n < 1 || n > this.pageCount) throw new SqliteReadError(`page ${n} is outside the database`);
    const logged = this.fromWal.get(n);
    if (logged) return logged;
    const start = (n - 1) * this.pageSize;
    if (start + this.pageSize > this.main.length) throw new SqliteReadError(`page ${n} is missing from the file`);
    return this.main.subarray(start, start + this.pageSize);
  }
}

/** SQLite's WAL checksum over LEN bytes (a multiple of 8), continued from S0 and S1. */
function walChecksum(buf: Uint8Array, at: number, len: number, s0: number, s1: number, bigEndian: boolean): [number, number] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = at; i < at + len; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

interface Cell {
  rowid: bigint;
  payload: Uint8Array;
}

/** Every cell of a table's b-tree, in rowid order, with its whole payload (overflow followed). */
function tableCells(pages: Pages, root: number): Cell[] {
  const cells: Cell[] = [];
  const stack = [root];
  let visited = 0;
  // Depth-first, right-most child pushed first: leaves come out in rowid order.
  while (stack.length > 0) {
    if (++visited > MAX_PAGES_VISITED) throw new SqliteReadError('the table does not end (damaged file?)');
    const n = stack.pop()!;
    const page = pages.page(n);
    const base = n === 1 ? 100 : 0;
    const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
    const type = page[base];
    const count = view.getUint16(base + 3);
    if (type === 0x05) {
      const children: number[] = [];
      for (let i = 0; i < count; i++) children.push(view.getUint32(view.getUint16(base + 12 + 2 * i)));
      children.push(view.getUint32(base + 8));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    } else if (type === 0x0d) {
      for (let i = 0; i < count; i++) cells.push(leafCell(pages, page, view.getUint16(base + 8 + 2 * i)));
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
  if (size <= x) return { rowid, payload: page.subarray(start, start + size) };
  const m = Math.floor(((u - 12) * 32) / 255) - 23;
  const k = m + ((size - m) % (u - 4));
  const local = k <= x ? k : m;
  const payload = new Uint8Array(size);
  payload.set(page.subarray(start, start + local));
  let filled = local;
  let next = new DataView(page.buffer, page.byteOffset, page.byteLength).getUint32(start + local);
  let hops = 0;
  while (filled < size) {
    if (next === 0 || ++hops > MAX_PAGES_VISITED) throw new SqliteReadError('an overflow chain ends early');
    const overflow = pages.page(next);
    const take = Math.min(u - 4, size - filled);
    payload.set(overflow.subarray(4, 4 + take), filled);
    filled += take;
    next = new DataView(overflow.buffer, overflow.byteOffset, overflow.byteLength).getUint32(0);
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
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const values: SqliteValue[] = [];
  let at = headerSize;
  const int = (bytes: number): number | bigint => {
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
      values.push(view.getFloat64(at));
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

/** A database's files, as read from disk: the main file and its WAL (absent when there is none). */
export interface SqliteFiles {
  main: Uint8Array;
  wal?: Uint8Array | undefined;
}

/**
 * Every row of TABLE, each as column name to value; undefined when the database has no such table.
 * A column added after a row was written (ALTER TABLE ADD COLUMN) reads as null in that row.
 */
export function readTable(files: SqliteFiles, table: string): SqliteRow[] | undefined {
  const pages = new Pages(files.main, files.wal);
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
