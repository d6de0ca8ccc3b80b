/**
 * The browser build of qrcode, which the guest gallery draws its QR codes with. Its published
 * types (@types/qrcode) pull Node's into the whole renderer program (timers, streams): only what
 * the gallery calls is declared here.
 */
declare module 'qrcode/lib/browser.js' {
  interface SvgOptions {
    type: 'svg';
    margin?: number;
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H';
    color?: { dark?: string; light?: string };
  }
  const qrcode: { toString(text: string, options: SvgOptions): Promise<string> };
  export default qrcode;
}
