import QRCode from 'qrcode';

/** A link for guests as a QR code: every code the booth shows them is drawn the same way. */
export const qrSvg = (url: string): Promise<string> =>
  QRCode.toString(url, {
    type: 'svg',
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark: '#000000', light: '#ffffff' },
  });
