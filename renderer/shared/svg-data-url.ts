/** An SVG's markup (a QR code) as an `<img>` source: no request to make, no blob URL to revoke. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
