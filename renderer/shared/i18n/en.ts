import { enActions } from './en/actions.js';
import { enConsole } from './en/console.js';
import type { MessageKey } from './fr.js';

export const en: Record<MessageKey, string> = { ...enConsole, ...enActions };
