import { frActions } from './fr/actions.js';
import { frConsole } from './fr/console.js';
import { frErrors } from './fr/errors.js';
import { frDashboard } from './fr/dashboard.js';
import { frGallery } from './fr/gallery.js';
import { frHardware } from './fr/hardware.js';
import { frHome } from './fr/home.js';
import { frLogs } from './fr/logs.js';
import { frBackup } from './fr/backup.js';
import { frPrint } from './fr/print.js';
import { frPublish } from './fr/publish.js';
import { frKeys } from './fr/keys.js';
import { frCapture } from './fr/capture.js';
import { frFields } from './fr/fields.js';

/** French is the booth's first language: every key starts here, English must follow it. */
export const fr = {
  ...frConsole,
  ...frActions,
  ...frGallery,
  ...frPrint,
  ...frDashboard,
  ...frHardware,
  ...frErrors,
  ...frPublish,
  ...frHome,
  ...frLogs,
  ...frBackup,
  ...frKeys,
  ...frCapture,
  ...frFields,
} as const;

export type MessageKey = keyof typeof fr;
