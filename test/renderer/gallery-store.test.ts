// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicPhoto } from '../../server/contract/photos.contract.js';
import { useGalleryStore } from '../../renderer/gallery/stores/gallery.store.js';
import { galleryService, type GalleryPage, type GalleryStreamHandlers } from '../../renderer/gallery/services/gallery.service.js';

vi.mock('../../renderer/gallery/services/gallery.service.js', () => ({
  galleryService: { page: vi.fn(), openStream: vi.fn(), bootPage: vi.fn(), pageSize: vi.fn(), takeTapped: vi.fn() },
}));
// A reconnection also reads the event's address online again (online-link-live.test.ts).
vi.mock('../../renderer/gallery/services/online.service.js', () => ({
  onlineService: { link: vi.fn(() => Promise.resolve({ url: null, svg: null })), photoLink: vi.fn() },
}));

const photo = (id: string): PublicPhoto => ({ id, taken_at: '2026-11-22T20:00:00Z', printed_copies: 0 }) as PublicPhoto;
const page = (ids: string[], next: string | null): GalleryPage => ({
  photos: ids.map(photo),
  next_cursor: next,
  event: { name: 'Gala', photo_count: 3, welcome: 'Bienvenue' },
});
const ids = () => useGalleryStore().photos.map((p) => p.id);

/** A page answer the test releases when it wants, to race a reload against it. */
function deferred(): { promise: Promise<GalleryPage>; resolve: (p: GalleryPage) => void } {
  let resolve!: (p: GalleryPage) => void;
  const promise = new Promise<GalleryPage>((r) => (resolve = r));
  return { promise, resolve };
}

describe("a guest's gallery", () => {
  let stream: GalleryStreamHandlers;
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(galleryService.page).mockReset();
    vi.mocked(galleryService.bootPage).mockReset().mockResolvedValue(null);
    vi.mocked(galleryService.pageSize).mockReturnValue(60);
    vi.mocked(galleryService.openStream).mockImplementation((handlers) => {
      stream = handlers;
      return () => undefined;
    });
  });

  it('opens the photo a guest tapped on the first screen before the app was there, once, and only one it holds', async () => {
    vi.mocked(galleryService.bootPage).mockResolvedValueOnce(page(['c', 'b', 'a'], null));
    const store = useGalleryStore();
    await store.loadMore();
    vi.mocked(galleryService.takeTapped).mockReturnValueOnce('b').mockReturnValueOnce(null);
    expect(store.tappedBeforeStart()).toBe(1);
    expect(store.tappedBeforeStart()).toBeNull();
    vi.mocked(galleryService.takeTapped).mockReturnValueOnce('gone');
    expect(store.tappedBeforeStart()).toBeNull();
  });

  it('pages with the cursor it was given, newest first, and says when the last page is in', async () => {
    vi.mocked(galleryService.page)
      .mockResolvedValueOnce(page(['c', 'b'], 'cur1'))
      .mockResolvedValueOnce(page(['a'], null));
    const store = useGalleryStore();
    expect(await store.loadMore()).toBe(true);
    expect(await store.loadMore()).toBe(false);
    expect(vi.mocked(galleryService.page).mock.calls.map((c) => c[0])).toEqual([null, 'cur1']);
    expect(ids()).toEqual(['c', 'b', 'a']);
    expect(store.done).toBe(true);
    expect(store.eventName).toBe('Gala');
  });

  it('opens on the page that came in the page itself, then goes on from its cursor in pages sized to the screen', async () => {
    vi.mocked(galleryService.bootPage).mockResolvedValueOnce(page(['c', 'b'], 'cur1'));
    vi.mocked(galleryService.pageSize).mockReturnValue(93);
    vi.mocked(galleryService.page).mockResolvedValueOnce(page(['a'], null));
    const store = useGalleryStore();
    expect(await store.loadMore()).toBe(true);
    expect(ids()).toEqual(['c', 'b']);
    expect(galleryService.page).not.toHaveBeenCalled();
    expect(await store.loadMore()).toBe(false);
    expect(vi.mocked(galleryService.page).mock.calls).toEqual([['cur1', 93]]);
    expect(ids()).toEqual(['c', 'b', 'a']);
  });

  it('on its first connection, adds the photos taken since the first page on top, without emptying the grid', async () => {
    const at = (id: string, time: string): PublicPhoto => ({ ...photo(id), taken_at: time });
    vi.mocked(galleryService.bootPage).mockResolvedValueOnce({
      photos: [at('b', '2026-11-22T20:00:02Z'), at('a', '2026-11-22T20:00:01Z')],
      next_cursor: 'cur1',
      event: { name: 'Gala', photo_count: 2, welcome: null },
    });
    const later = deferred();
    vi.mocked(galleryService.page).mockReturnValueOnce(later.promise);
    const store = useGalleryStore();
    store.connect();
    await store.loadMore();
    stream.connected(true);
    expect(ids()).toEqual(['b', 'a']);
    later.resolve({ photos: [at('c', '2026-11-22T20:00:03Z'), at('b', '2026-11-22T20:00:02Z')], next_cursor: 'x', event: null });
    await vi.waitFor(() => expect(ids()).toEqual(['c', 'b', 'a']));
    expect(store.photoCount).toBe(3);
    expect(vi.mocked(galleryService.page).mock.calls).toEqual([[null, 24]]);
  });

  it('reloads on its first connection when the photos taken meanwhile are more than it asked for', async () => {
    const at = (id: string, time: string): PublicPhoto => ({ ...photo(id), taken_at: time });
    vi.mocked(galleryService.bootPage).mockResolvedValueOnce({ photos: [at('a', '2026-11-22T20:00:01Z')], next_cursor: null, event: null });
    const burst = Array.from({ length: 24 }, (_, i) => at(`n${i}`, `2026-11-22T20:01:${String(59 - i).padStart(2, '0')}Z`));
    vi.mocked(galleryService.page)
      .mockResolvedValueOnce({ photos: burst, next_cursor: 'more', event: null })
      .mockResolvedValueOnce({
        photos: [...burst, at('m', '2026-11-22T20:00:30Z'), at('a', '2026-11-22T20:00:01Z')],
        next_cursor: null,
        event: null,
      });
    const store = useGalleryStore();
    await store.loadMore();
    store.connect();
    stream.connected(true);
    await vi.waitFor(() => expect(ids()).toHaveLength(26));
    expect(ids()).toContain('m');
    expect(vi.mocked(galleryService.page).mock.calls).toEqual([
      [null, 24],
      [null, 60],
    ]);
  });

  it('shows a photo once even when it arrives live and then again in a page', async () => {
    vi.mocked(galleryService.page)
      .mockResolvedValueOnce(page(['b'], 'cur1'))
      .mockResolvedValueOnce(page(['x', 'a'], null));
    const store = useGalleryStore();
    store.connect();
    await store.loadMore();
    stream.added(photo('x'));
    await store.loadMore();
    expect(ids()).toEqual(['x', 'b', 'a']);
  });

  it('drops a page overtaken by a reload and keeps scrolling afterwards', async () => {
    const slow = deferred();
    vi.mocked(galleryService.page)
      .mockReturnValueOnce(slow.promise)
      .mockResolvedValueOnce(page(['n2', 'n1'], 'cur-new'))
      .mockResolvedValueOnce(page(['n0'], null));
    const store = useGalleryStore();
    const first = store.loadMore();
    await store.reload();
    slow.resolve(page(['old'], 'cur-old'));
    await first;
    expect(ids()).toEqual(['n2', 'n1']);
    expect(store.loading).toBe(false);
    expect(await store.loadMore()).toBe(false);
    expect(vi.mocked(galleryService.page).mock.calls.at(-1)?.[0]).toBe('cur-new');
    expect(ids()).toEqual(['n2', 'n1', 'n0']);
  });

  it('follows the live stream: removals, updates, a new event, and a reconnection after a cut', async () => {
    vi.mocked(galleryService.page).mockResolvedValue(page(['b', 'a'], null));
    const store = useGalleryStore();
    store.connect();
    stream.connected(true);
    await store.loadMore();
    stream.updated({ ...photo('a'), printed_copies: 2 });
    expect(store.photos.find((p) => p.id === 'a')?.printed_copies).toBe(2);
    stream.removed('b');
    expect(ids()).toEqual(['a']);
    stream.connected(false);
    expect(store.live).toBe(false);
    vi.mocked(galleryService.page).mockResolvedValue(page(['c', 'a'], null));
    stream.connected(true);
    await vi.waitFor(() => expect(ids()).toEqual(['c', 'a']));
    expect(store.live).toBe(true);
  });

  it('says so when a page cannot be read, and clears it on the next success', async () => {
    vi.mocked(galleryService.page)
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(page(['a'], null));
    const store = useGalleryStore();
    expect(await store.loadMore()).toBe(false);
    expect(store.error).toBe(true);
    await store.loadMore();
    expect(store.error).toBe(false);
    expect(ids()).toEqual(['a']);
  });

  it('keeps the event’s photo count and welcome line, and counts live arrivals and removals', async () => {
    vi.mocked(galleryService.page).mockResolvedValueOnce(page(['c', 'b'], 'cur1'));
    const store = useGalleryStore();
    store.connect();
    await store.loadMore();
    expect(store.photoCount).toBe(3);
    expect(store.welcome).toBe('Bienvenue');
    stream.added(photo('d'));
    stream.added(photo('d'));
    expect(store.photoCount).toBe(4);
    stream.removed('c');
    expect(store.photoCount).toBe(3);
  });
});
