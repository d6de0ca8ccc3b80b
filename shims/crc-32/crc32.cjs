'use strict';
// Same results as SheetJS crc-32 (signed 32-bit integers, chained through `seed`), computed by
// zlib's native CRC-32, which is several times faster than crc-32's table in JavaScript.
const zlib = require('node:zlib');

const toBytes = (data) => (data instanceof Uint8Array ? data : Uint8Array.from(data));

exports.version = '1.2.2';
exports.buf = (data, seed) => zlib.crc32(toBytes(data), (seed ?? 0) >>> 0) | 0;
exports.str = (data, seed) => zlib.crc32(Buffer.from(String(data), 'utf8'), (seed ?? 0) >>> 0) | 0;
exports.bstr = (data, seed) => zlib.crc32(Buffer.from(String(data), 'latin1'), (seed ?? 0) >>> 0) | 0;
