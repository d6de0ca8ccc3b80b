// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicPhoto } from '../../server/contract/photos.contract.js';
import { useGalleryStore } from '../../renderer/gallery/stores/gallery.store.js';
import { galleryService } from '../../renderer/gallery/services/gallery.service.js';

vi.mock('../../renderer/gallery/services/gallery.service.js', () => ({
  galleryService: { file: vi.fn() },
}));

const photo = {
  id: 'a1',
  kind: 'photo',
  taken_at: '2026-11-22T20:00:00Z',
  printed_copies: 0,
  urls: { thumb: '/t', preview: '/p', download: '/api/gallery/photos/a1/download' },
} as PublicPhoto;

/** The page's context: secure or not, with or without the Web Share API (and its file sharing). */
function browser({ secure, share, files }: { secure: boolean; share: boolean; files: boolean }) {
  const calls: ShareData[] = [];
  vi.stubGlobal('isSecureContext', secure);
  Object.defineProperty(navigator, 'share', {
    value: share ? (data: ShareData) => (calls.push(data), Promise.resolve()) : undefined,
    configurable: true,
  });
  Object.defineProperty(navigator, 'canShare', { value: files ? () => true : undefined, configurable: true });
  return calls;
}

describe('sharing a photo from the guest gallery', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.mocked(galleryService.file).mockResolvedValue(new File(['x'], 'Gala.jpg', { type: 'image/jpeg' }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the file to the share sheet where the browser shares files', async () => {
    const calls = browser({ secure: true, share: true, files: true });
    expect(await useGalleryStore().share(photo)).toBe('shared');
    expect(calls[0]?.files?.[0]?.name).toBe('Gala.jpg');
  });

  it('sends the photo’s address where the browser shares only links', async () => {
    const calls = browser({ secure: true, share: true, files: false });
    expect(await useGalleryStore().share(photo)).toBe('shared');
    expect(calls[0]?.url).toBe(new URL('/api/gallery/photos/a1/download', location.href).href);
  });

  it('on a plain-HTTP page, shares nothing and downloads nothing: the page offers the QR code', async () => {
    const calls = browser({ secure: false, share: true, files: true });
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    expect(await useGalleryStore().share(photo)).toBe('failed');
    expect(calls).toEqual([]);
    expect(clicks).not.toHaveBeenCalled();
  });

  it('a guest closing the share sheet is not a failure', async () => {
    browser({ secure: true, share: true, files: true });
    Object.defineProperty(navigator, 'share', { value: () => Promise.reject(new DOMException('no', 'AbortError')), configurable: true });
    expect(await useGalleryStore().share(photo)).toBe('cancelled');
  });
});
