'use strict';
// Same results as SheetJS crc-32 (signed 32-bit integers, chained through `seed`), computed by
// zlib's native CRC-32, which is several times faster than crc-32's table in JavaScript.
const zlib = require('node:zlib');

const toBytes = (data) => (data instanceof Uint8Array ? data : Uint8Array.from(data));

const crc = (bytes, seed) => (bytes.length === 0 ? (seed ?? 0) | 0 : zlib.crc32(bytes, (seed ?? 0) >>> 0) | 0);

const SURROGATE = /[\ud800-\udfff]/;

/**
 * crc-32's own UTF-8: equal to Buffer's for well-formed text, but a lone surrogate is paired
 * with whatever follows it (Buffer would write U+FFFD), so such strings are encoded its way.
 */
function utf8(text) {
  if (!SURROGATE.test(text)) return Buffer.from(text, 'utf8');
  const out = [];
  for (let i = 0; i < text.length; ) {
    let c = text.charCodeAt(i++);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(192 | ((c >> 6) & 31), 128 | (c & 63));
    else if (c >= 0xd800 && c < 0xe000) {
      c = (c & 1023) + 64;
      const d = text.charCodeAt(i++) & 1023;
      out.push(240 | ((c >> 8) & 7), 128 | ((c >> 2) & 63), 128 | ((d >> 6) & 15) | ((c & 3) << 4), 128 | (d & 63));
    } else out.push(224 | ((c >> 12) & 15), 128 | ((c >> 6) & 63), 128 | (c & 63));
  }
  return Uint8Array.from(out);
}

exports.version = '1.2.2';
exports.buf = (data, seed) => crc(toBytes(data), seed);
exports.str = (data, seed) => crc(utf8(String(data)), seed);
exports.bstr = (data, seed) => crc(Buffer.from(String(data), 'latin1'), seed);
