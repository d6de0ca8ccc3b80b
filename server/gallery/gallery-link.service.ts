import type { GalleryLink } from '../contract/photos.contract.js';
import type { SettingsService } from '../settings/settings.service.js';
import { qrSvg } from './qr-code.js';

/**
 * The public gallery's address on the booth's network, as a QR code for guests. Computed from
 * the board's LAN address and port unless the settings give one; made here, so it works with
 * no internet.
 */
export class GalleryLinkService {
  constructor(
    private readonly settings: SettingsService,
    private readonly computedUrl: () => string,
  ) {}

  async get(): Promise<GalleryLink> {
    const override = this.settings.stored().gallery.public_url;
    const url = override ? `${override}/` : this.computedUrl();
    const svg = await qrSvg(url);
    return { url, source: override ? 'settings' : 'computed', svg };
  }
}
