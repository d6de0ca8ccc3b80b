import type { PublicPhoto } from '../../../server/contract/photos.contract.js';

/**
 * The Web Share API exists only in a secure context (HTTPS, localhost): a phone on the booth's
 * plain-HTTP Wi-Fi has none, whatever the browser. Where it is missing, the gallery offers a QR
 * code of the photo's address instead of a Share button that could not share.
 */
export function browserCanShare(): boolean {
  return window.isSecureContext && typeof navigator.share === 'function';
}

/** The photo's address as another phone on the booth's Wi-Fi opens it: the address this phone used. */
export function photoAddress(photo: PublicPhoto): string {
  return new URL(photo.urls.download, window.location.href).href;
}

/** A QR code of `text` as SVG markup, drawn on the phone itself (no network needed). */
export async function qrSvg(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode/lib/browser.js');
  return QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } });
}
