import type { Migration } from '../migrator.js';
import { initial } from './001-initial.js';
import { actions } from './002-actions.js';
import { eventsAndPhotos } from './003-events-photos.js';
import { printing } from './004-print.js';
import { mediaKinds } from './005-media-kinds.js';
import { mediaVersions } from './006-media-versions.js';
import { printAddresses } from './007-print-addresses.js';
import { publish } from './008-publish.js';
import { arrivalOrder } from './009-arrival-order.js';
import { collageParts } from './010-collage-parts.js';
import { publishPlaces } from './011-publish-places.js';
import { publishLocks } from './012-publish-locks.js';
import { captureJobFailures } from './013-capture-job-failures.js';
import { publishSizes } from './014-publish-sizes.js';

/** Every schema change, in the order it must run. Append only. */
export const migrations: readonly Migration[] = [
  initial,
  actions,
  eventsAndPhotos,
  printing,
  mediaKinds,
  mediaVersions,
  printAddresses,
  publish,
  arrivalOrder,
  collageParts,
  publishPlaces,
  publishLocks,
  captureJobFailures,
  publishSizes,
];
