import type { frCapture } from '../fr/capture.js';

export const enCapture: Record<keyof typeof frCapture, string> = {
  'jobs.failed.one': '“{action}” ({kind}) failed at {time}: the guest did not get {result}.',
  'jobs.failed.other': '“{action}” ({kind}) failed {count} times in a row, last at {time}: guests who press this button get {result}.',
  'jobs.lost.guest.image': 'their photo',
  'jobs.lost.guest.collage': 'their collage',
  'jobs.lost.guest.animation': 'their animation',
  'jobs.lost.guest.video': 'their video',
  'jobs.lost.guest.multicamera': 'their multi-camera shot',
  'jobs.lost.guests.image': 'no photo',
  'jobs.lost.guests.collage': 'no collage',
  'jobs.lost.guests.animation': 'no animation',
  'jobs.lost.guests.video': 'no video',
  'jobs.lost.guests.multicamera': 'no multi-camera shot',
  'jobs.reasons': 'What the capture app says',
  'jobs.noReason': 'The capture app gave no reason. Its log may say more.',
  'jobs.seen': 'Got it',
  'jobs.more': '{count} {count:other failure|other failures} earlier.',
  'actions.failing': '{count} {count:failure|failures} in a row',
  'actions.failingTitle': 'The last runs of this action all failed (the last at {time}).',
};
