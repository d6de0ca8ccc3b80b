import sharp from 'sharp';

/** What a tile stands for when no picture can be drawn from the photo's file. */
export type PlaceholderKind = 'video' | 'image';

/**
 * A designed stand-in, drawn once per kind and size: a video whose frame cannot be read (no
 * ffmpeg on the board) shows a play mark, a file sharp cannot or must not decode shows a
 * picture mark. Never a broken image, never a 500; no words, so it needs no translation.
 */
function svg(kind: PlaceholderKind, width: number, height: number): Buffer {
  const r = Math.round(Math.min(width, height) * 0.16);
  const cx = width / 2;
  const cy = height / 2;
  const mark =
    kind === 'video'
      ? `<circle cx="${cx}" cy="${cy}" r="${r}" fill="rgba(255,255,255,0.18)" stroke="#fff" stroke-width="${Math.max(2, r / 10)}"/>
         <path d="M${cx - r * 0.32} ${cy - r * 0.48} L${cx + r * 0.52} ${cy} L${cx - r * 0.32} ${cy + r * 0.48} Z" fill="#fff"/>`
      : `<rect x="${cx - r * 1.2}" y="${cy - r * 0.9}" width="${r * 2.4}" height="${r * 1.8}" rx="${r * 0.2}" fill="none" stroke="#fff" stroke-width="${Math.max(2, r / 10)}"/>
         <circle cx="${cx + r * 0.55}" cy="${cy - r * 0.35}" r="${r * 0.22}" fill="#fff"/>
         <path d="M${cx - r * 1.05} ${cy + r * 0.75} L${cx - r * 0.3} ${cy - r * 0.1} L${cx + r * 0.25} ${cy + r * 0.45} L${cx + r * 0.55} ${cy + r * 0.2} L${cx + r * 1.05} ${cy + r * 0.75} Z" fill="#fff"/>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#3a3f58"/><stop offset="1" stop-color="#1d2030"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${mark}
  </svg>`);
}

const made = new Map<string, Promise<Buffer>>();

/** The stand-in as WebP (tiles) or JPEG (a video's poster in the lightbox), made once. */
export function placeholder(kind: PlaceholderKind, format: 'webp' | 'jpeg', width: number, height: number): Promise<Buffer> {
  const key = `${kind}:${format}:${width}x${height}`;
  let image = made.get(key);
  if (!image) {
    const drawn = sharp(svg(kind, width, height));
    image = (format === 'webp' ? drawn.webp({ quality: 80 }) : drawn.jpeg({ quality: 85 })).toBuffer();
    made.set(key, image);
    image.catch(() => made.delete(key));
  }
  return image;
}
