import { frActions } from './fr/actions.js';
import { frConsole } from './fr/console.js';
import { frErrors } from './fr/errors.js';
import { frGallery } from './fr/gallery.js';
import { frPrint } from './fr/print.js';

/** French is the booth's first language: every key starts here, English must follow it. */
export const fr = { ...frConsole, ...frActions, ...frGallery, ...frPrint, ...frErrors } as const;

export type MessageKey = keyof typeof fr;
