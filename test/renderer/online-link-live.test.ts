// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { galleryService, type GalleryStreamHandlers } from '../../renderer/gallery/services/gallery.service.js';
import { onlineService } from '../../renderer/gallery/services/online.service.js';
import { useGalleryStore } from '../../renderer/gallery/stores/gallery.store.js';
import { useOnlineStore } from '../../renderer/gallery/stores/online.store.js';

vi.mock('../../renderer/gallery/services/gallery.service.js', () => ({
  galleryService: { page: vi.fn(), openStream: vi.fn(), bootPage: vi.fn(), pageSize: vi.fn(), takeTapped: vi.fn() },
}));
vi.mock('../../renderer/gallery/services/online.service.js', () => ({ onlineService: { link: vi.fn(), photoLink: vi.fn() } }));

const ADDRESS = 'https://photos.example.com/booth/tok/';
const event = { name: 'Gala', photo_count: 0, welcome: null };

describe("the event's address online on a guest's phone", () => {
  let stream: GalleryStreamHandlers;
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(onlineService.link).mockReset().mockResolvedValue({ url: null, svg: null });
    vi.mocked(onlineService.photoLink).mockReset();
    vi.mocked(galleryService.bootPage).mockResolvedValue(null);
    vi.mocked(galleryService.page).mockResolvedValue({ photos: [], next_cursor: null, event });
    vi.mocked(galleryService.openStream).mockImplementation((handlers) => {
      stream = handlers;
      return () => undefined;
    });
  });

  it('appears and goes as the booth announces it on the live stream, without the phone asking', async () => {
    const online = useOnlineStore();
    await online.load();
    useGalleryStore().connect();
    stream.connected(true);
    expect(online.url).toBeNull();

    stream.online?.({ url: ADDRESS, svg: '<svg/>' });
    expect(online.url).toBe(ADDRESS);
    expect(online.svg).toBe('<svg/>');
    // Withdrawn at the booth: the card goes.
    stream.online?.({ url: null, svg: null });
    expect(online.url).toBeNull();
    expect(onlineService.link).toHaveBeenCalledOnce();
  });

  it('is read again when the stream comes back after a cut, not on its first connection', async () => {
    const gallery = useGalleryStore();
    await gallery.loadMore();
    const online = useOnlineStore();
    await online.load();
    gallery.connect();
    stream.connected(true);
    await vi.waitFor(() => expect(galleryService.page).toHaveBeenCalled());
    expect(onlineService.link).toHaveBeenCalledOnce();

    // The event went online while the phone's stream was cut: it hears nothing of it.
    stream.connected(false);
    vi.mocked(onlineService.link).mockResolvedValue({ url: ADDRESS, svg: '<svg/>' });
    stream.connected(true);
    await vi.waitFor(() => expect(online.url).toBe(ADDRESS));
    expect(onlineService.link).toHaveBeenCalledTimes(2);
  });

  it("forgets the open photo's own page when the address changes, so that it is asked for under the new one", async () => {
    const online = useOnlineStore();
    online.changed({ url: ADDRESS, svg: '<svg/>' });
    vi.mocked(onlineService.photoLink).mockResolvedValue({ url: `${ADDRESS}p/1.html`, svg: '<svg/>' });
    await online.loadPhoto('1');
    expect(online.photo?.url).toBe(`${ADDRESS}p/1.html`);
    online.changed({ url: null, svg: null });
    expect(online.photo).toBeNull();
  });
});
