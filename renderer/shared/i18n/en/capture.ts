import type { frCapture } from '../fr/capture.js';

export const enCapture: Record<keyof typeof frCapture, string> = {
  'jobs.failed.one': '“{action}” ({kind}) failed at {time}: the guest did not get their {result}.',
  'jobs.failed.other': '“{action}” ({kind}) failed {count} times in a row, last at {time}: guests who press this button get no {result}.',
  'jobs.result.image': 'photo',
  'jobs.result.collage': 'collage',
  'jobs.result.animation': 'animation',
  'jobs.result.video': 'video',
  'jobs.result.multicamera': 'multi-camera shot',
  'jobs.reasons': 'What the capture app says',
  'jobs.noReason': 'The capture app gave no reason. Its log may say more.',
  'jobs.seen': 'Got it',
  'jobs.more': '{count} {count:other failure|other failures} earlier.',
  'actions.failing': '{count} {count:failure|failures} in a row',
  'actions.failingTitle': 'The last runs of this action all failed (the last at {time}).',
};
