import { validationError } from '../core/api-error.ts';
import type { HttpRequest } from './api-request.ts';

/** Content codings the body parsers undo; anything else is refused. */
export const SUPPORTED_CONTENT_ENCODINGS = ['gzip', 'deflate', 'br', 'identity'] as const;

/**
 * What to keep of a body-parser failure. A body announced as compressed that does not decompress (zlib
 * and brotli errors carry no body-parser `type`), or an encoding we do not undo, becomes
 * `400 VALIDATION_ERROR` on `Content-Encoding` (not body-parser's 415, which the contract does not
 * document); every other failure is kept as is for the one error mapping (`toApiError`).
 */
export const classifyBodyError = (error: unknown, req: HttpRequest): unknown => {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity') return error;
  const type = (error as { type?: string } | null)?.type;
  if (type === 'encoding.unsupported') {
    return validationError([{ field: 'Content-Encoding', message: `must be one of ${SUPPORTED_CONTENT_ENCODINGS.join(', ')}` }]);
  }
  if (type === undefined) {
    return validationError([{ field: 'Content-Encoding', message: `the body is not valid ${encoding} data` }]);
  }
  return error;
};
