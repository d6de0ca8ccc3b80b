/**
 * Buffers kept in memory up to a total size, the least recently used dropped first. A Map keeps
 * insertion order, so re-inserting on each read is all the bookkeeping recency needs.
 */
export class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    /** Larger buffers are never kept: one would push out many of the small ones the cache is for. */
    private readonly maxEntryBytes = maxBytes / 64,
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** Whether `key` is kept; unlike `get`, it does not count as a use. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Buffer): void {
    this.delete(key);
    if (value.length > this.maxEntryBytes) return;
    this.entries.set(key, value);
    this.total += value.length;
    for (const [oldest, buffer] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= buffer.length;
    }
  }

  /** Drops every entry whose key passes `test` (the copies of one photo, whatever their version). */
  deleteWhere(test: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.delete(key);
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (!value) return;
    this.entries.delete(key);
    this.total -= value.length;
  }
}
