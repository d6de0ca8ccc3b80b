import type { LogEntry } from '../../../../server/contract/dashboard.contract.js';
import type { MessageKey } from '../../../shared/i18n/index.js';

/**
 * Boothdeck writes its log in English for whoever fixes the booth; the operator reads a sentence
 * in the console's language. The first pattern that matches the line names it; the line itself
 * stays behind "Détails".
 */
const SUMMARIES: readonly [RegExp, MessageKey][] = [
  [/^Capture app stream connected/, 'logs.captureConnected'],
  [/^Capture app stream disconnected/, 'logs.captureDisconnected'],
  [/^Capture app stream connecting/, 'logs.captureConnecting'],
  [/^Capture app restarted/, 'logs.captureRestarted'],
  [/^Capture app (restart endpoint|reload) failed/, 'logs.captureRestartFallback'],
  [/^The capture app did not/, 'logs.captureRestartOdd'],
  [/^Dashboard: restarting the capture app/, 'logs.askedCaptureRestart'],
  [/^Dashboard: restarting Boothdeck|^Restart of Boothdeck/, 'logs.askedBoothdeckRestart'],
  [/^Dashboard: rebooting the board/, 'logs.askedReboot'],
  [/failed \(exit code \d+\)/, 'logs.commandFailed'],
  [/^Photo index:/, 'logs.photoIndex'],
  [/^Photo rescan failed|^Could not index photo|^Could not list the capture app/, 'logs.indexFailed'],
  [/vanished from the capture app/, 'logs.photosVanished'],
  [/^Could not make the thumbnail|^Video poster/, 'logs.thumbnailFailed'],
  [/^Could not check photos being processed/, 'logs.processingUnknown'],
  [/^Hardware reopened/, 'logs.hardwareBack'],
  [/^Hardware /, 'logs.hardwareFailed'],
  [/^Lux sensor read failed/, 'logs.luxFailed'],
  [/^LED ring write failed/, 'logs.ledFailed'],
  [/^Relay switch/, 'logs.relayFailed'],
  [/^Flash relay switched off by its bound/, 'logs.flashWatchdog'],
  [/^Print job \d+ failed/, 'logs.printFailed'],
  [/^The print worker stopped/, 'logs.printWorker'],
  [/^Backup restored/, 'logs.backupRestored'],
  [/^Cannot read /, 'logs.folderUnreadable'],
  [/^Open file limit|^Trial start/, 'logs.started'],
  [/^Capture-app simulator/, 'logs.simulator'],
  [/^The kiosk window was closed/, 'logs.kioskClosed'],
  [/^The gallery page was sent without/, 'logs.galleryPartial'],
  [/^Unhandled error/, 'logs.unexpected'],
];

const BY_LEVEL: Record<LogEntry['level'], MessageKey> = { info: 'logs.otherInfo', warn: 'logs.otherWarn', error: 'logs.otherError' };

export function logSummary(line: LogEntry): MessageKey {
  return SUMMARIES.find(([pattern]) => pattern.test(line.message))?.[1] ?? BY_LEVEL[line.level];
}

/** The line as written, for the details. */
export const logText = (line: LogEntry): string => (line.error ? `${line.message} — ${line.error}` : line.message);
