import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** The `Content-Type` values of the common body, lower-cased: JSON in UTF-8, the charset said or not. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const DIGITS = /^[0-9]{1,10}$/;
const BYTE_ORDER_MARK = 0xfeff;

/** A body failure as body-parser reports it: `type` is what the one error mapping reads (error-response.ts). */
const bodyError = (message: string, type: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(message), { status: 400, statusCode: 400, expose: true, type, ...extra });

/**
 * Reads exactly `expected` bytes of `req` as UTF-8 (invalid sequences become U+FFFD, as iconv-lite decodes them) and
 * answers the text, or the error body-parser's reader (raw-body) gives a connection closed early.
 */
const readText = (req: IncomingMessage, expected: number, done: (error: Error | undefined, text?: string) => void): void => {
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: Error | undefined, text?: string) => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onClosedEarly);
    req.off('close', onClosedEarly);
    done(error, text);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    // Node's parser ends the request at Content-Length; a difference means the header lied.
    if (received !== expected) {
      finish(bodyError('request size did not match content length', 'request.size.invalid', { expected, received }));
      return;
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
    finish(undefined, bytes.toString('utf8'));
  };
  const onClosedEarly = () =>
    finish(bodyError('request aborted', 'request.aborted', { code: 'ECONNABORTED', expected, received }));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onClosedEarly);
  req.on('close', onClosedEarly);
};

/** body-parser's `strict` JSON: an object or an array (after whitespace), else a parse failure. */
const parseStrict = (text: string): unknown => {
  const body = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first !== '{' && first !== '[') throw bodyError('the body is not a JSON object or array', 'entity.parse.failed');
  try {
    return JSON.parse(body);
  } catch (error) {
    throw bodyError((error as Error).message, 'entity.parse.failed');
  }
};

/**
 * Reads the common request body, JSON in UTF-8 of a stated length within the limit and not compressed, without
 * body-parser; every other body goes to `fallback` (body-parser's `express.json`), which decides as it always did:
 * compressed bodies, other charsets, chunked bodies, oversized ones, empty ones. Same results either way (`req.body`,
 * or an error with body-parser's `type`), at about a third of the CPU: body-parser's type-is, content-type,
 * raw-body, iconv-lite and on-finished cost ~60 µs of a write among reads (docs/operator/benchmarks.md).
 */
export const plainJsonBody =
  (limitBytes: number, fallback: RequestHandler): RequestHandler =>
  (req, res, next) => {
    const { headers } = req;
    const type = headers['content-type'];
    const length = headers['content-length'];
    const plain =
      type !== undefined &&
      PLAIN_JSON_TYPES.has(type.toLowerCase()) &&
      headers['content-encoding'] === undefined &&
      headers['transfer-encoding'] === undefined &&
      length !== undefined &&
      DIGITS.test(length) &&
      Number(length) > 0 &&
      Number(length) <= limitBytes &&
      !req.complete;
    if (!plain) {
      fallback(req, res, next);
      return;
    }
    readText(req, Number(length), (error, text) => {
      if (error) {
        next(error);
        return;
      }
      try {
        req.body = parseStrict(text as string);
      } catch (parseError) {
        next(parseError);
        return;
      }
      next();
    });
  };
