/**
 * The largest picture Boothdeck decodes: a 48-megapixel camera's (8000 × 6000), with room to
 * spare. sharp's own default (268 megapixels) lets one hostile file take a gigabyte on a 4 GB
 * board; beyond this, a placeholder stands in.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** The largest file read into memory to make a thumbnail from (a camera JPEG is a few MB). */
export const MAX_SOURCE_BYTES = 40 * 1024 * 1024;

/** The largest video fetched from the capture app to draw a poster from (its previews are small). */
export const MAX_VIDEO_BYTES = 200 * 1024 * 1024;
