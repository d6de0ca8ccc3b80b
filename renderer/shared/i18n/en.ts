import { enActions } from './en/actions.js';
import { enConsole } from './en/console.js';
import { enErrors } from './en/errors.js';
import { enDashboard } from './en/dashboard.js';
import { enGallery } from './en/gallery.js';
import { enHardware } from './en/hardware.js';
import { enHome } from './en/home.js';
import { enLogs } from './en/logs.js';
import { enBackup } from './en/backup.js';
import { enPrint } from './en/print.js';
import { enPublish } from './en/publish.js';
import { enKeys } from './en/keys.js';
import { enCapture } from './en/capture.js';
import { enFields } from './en/fields.js';
import type { MessageKey } from './fr.js';

export const en: Record<MessageKey, string> = {
  ...enConsole,
  ...enActions,
  ...enGallery,
  ...enPrint,
  ...enDashboard,
  ...enHardware,
  ...enErrors,
  ...enPublish,
  ...enHome,
  ...enLogs,
  ...enBackup,
  ...enKeys,
  ...enCapture,
  ...enFields,
};
