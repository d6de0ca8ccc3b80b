import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, DiskFullError, TooManyRequestsError, isDiskFull } from '../core/errors.js';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export type ErrorLogger = (err: unknown) => void;

function bodyOf(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** body-parser and serve-static report client faults as plain errors carrying a `type` or a `status`. */
function clientFailure(err: unknown): { status: number; code: string; message: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  switch ((err as { type?: unknown }).type) {
    case 'entity.parse.failed':
      return { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, code: 'payload_too_large', message: 'The request body is too large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: 'unsupported_encoding', message: 'The request body encoding is not supported' };
    case 'request.aborted':
      return { status: 400, code: 'request_aborted', message: 'The request was aborted' };
    default:
      break;
  }
  // Errors of send/serve-static (missing asset, bad range) carry a 4xx status of their own.
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known: Record<number, [string, string]> = { 403: ['forbidden', 'Forbidden'], 404: ['not_found', 'Not found'] };
    const [code, message] = known[status] ?? ['bad_request', 'Bad request'];
    return { status, code, message };
  }
  return undefined;
}

/**
 * The one place errors become responses: typed errors keep their status, everything else is a
 * 500 whose details stay in the log, never in the body.
 */
export function errorMiddleware(log: ErrorLogger, onDiskFull: () => void = () => undefined): ErrorRequestHandler {
  return (caught, _req, res, next) => {
    if (res.headersSent) {
      next(caught);
      return;
    }
    // SQLite and the file system say "full" in their own codes; the console is told in one.
    const diskFull = isDiskFull(caught);
    if (diskFull) onDiskFull();
    const err: unknown = diskFull ? new DiskFullError() : caught;
    if (err instanceof AppError) {
      if (err instanceof TooManyRequestsError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      res.status(err.status).json(bodyOf(err.code, err.message, err.details));
      return;
    }
    const parser = clientFailure(err);
    if (parser) {
      res.status(parser.status).json(bodyOf(parser.code, parser.message));
      return;
    }
    log(err);
    res.status(500).json(bodyOf('internal_error', 'Something went wrong on the booth; the error was logged'));
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json(bodyOf('not_found', `No route for ${req.method} ${req.originalUrl.split('?')[0] ?? ''}`));
};

export const pageNotFound: RequestHandler = (_req, res) => {
  res.status(404).type('text/plain').send('Not found');
};
