import { enActions } from './en/actions.js';
import { enConsole } from './en/console.js';
import { enErrors } from './en/errors.js';
import { enGallery } from './en/gallery.js';
import { enPrint } from './en/print.js';
import type { MessageKey } from './fr.js';

export const en: Record<MessageKey, string> = { ...enConsole, ...enActions, ...enGallery, ...enPrint, ...enErrors };
