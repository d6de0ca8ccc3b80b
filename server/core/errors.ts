/**
 * Typed errors thrown by services. The error middleware is the only place that turns them
 * into HTTP statuses, so services stay free of transport concerns.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, 'validation_failed', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Admin session required', details?: unknown) {
    super(401, 'unauthorized', message, details);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

/** The session holds the event key (the renter's) and the request needs the owner's. */
export class OwnerKeyRequiredError extends AppError {
  constructor(message = "This needs the owner's key: enter the owner PIN", details?: unknown) {
    super(403, 'owner_key_required', message, details);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code = 'not_found') {
    super(404, code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'rate_limited',
  ) {
    super(429, code, message);
  }
}

/** The capture app answered, but not in a way we can use. */
export class CaptureAppError extends AppError {
  constructor(message: string, details?: unknown) {
    super(502, 'capture_app_error', message, details);
  }
}

/** The capture app still knows a photo, but the file that represents it is gone. */
export class CaptureFileMissingError extends CaptureAppError {
  constructor() {
    super('The capture app still knows the photo, but its file is missing');
  }
}

/**
 * The capture app answered a configuration write with success but did not keep a value (it
 * drops keys it does not know): read back after the write. Nothing local was stored.
 */
export class CaptureNotKeptError extends AppError {
  constructor(message: string, details?: unknown) {
    super(502, 'capture_not_kept', message, details);
  }
}

/**
 * The capture app refused a configuration as invalid (its 422). The content came from the
 * operator, so this is a 400 with the capture app's reasons.
 */
export class CaptureRejectedError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, 'capture_app_rejected', message, details);
  }
}

/** The capture app could not be reached in time. */
export class CaptureUnavailableError extends AppError {
  constructor(message: string) {
    super(503, 'capture_app_unavailable', message);
  }
}

/** The request went out but no answer came in time: the capture app may well have acted on it. */
export class CaptureTimeoutError extends CaptureUnavailableError {}

/** The booth's storage is full: a state to show the operator, not a crash. */
export class DiskFullError extends AppError {
  constructor(message = 'The booth’s storage is full: free some space (old photos, exports) and try again') {
    super(507, 'disk_full', message);
  }
}

const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** True for a write refused for lack of space, from SQLite (SQLITE_FULL) or the file system (ENOSPC). */
export function isDiskFull(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'The request body must be JSON (Content-Type: application/json)') {
    super(415, 'unsupported_media_type', message);
  }
}

/** A system command (systemctl, reboot…) ran and failed; the message carries its own words. */
export class SystemCommandError extends AppError {
  constructor(message: string, details?: unknown) {
    super(502, 'command_failed', message, details);
  }
}
