/**
 * A WebP's width and height from its first 30 bytes (lossy `VP8 `, lossless `VP8L` or extended
 * `VP8X`); null for anything else. The published page draws each tile in its thumbnail's proportions.
 */
export function webpSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 30 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = data.toString('latin1', 12, 16);
  let size: { width: number; height: number } | null = null;
  if (chunk === 'VP8 ' && data[23] === 0x9d && data[24] === 0x01 && data[25] === 0x2a)
    size = { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  else if (chunk === 'VP8L' && data[20] === 0x2f) {
    const bits = data.readUInt32LE(21);
    size = { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  } else if (chunk === 'VP8X') size = { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  return size !== null && size.width > 0 && size.height > 0 ? size : null;
}
