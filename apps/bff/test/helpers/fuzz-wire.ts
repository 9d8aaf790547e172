import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { Operation } from '@credit/contract';
import { RawJson } from './fuzz-hostile.ts';
import { encodeText } from './fuzz-query.ts';

/** How a body goes on the wire: its content type and its Content-Encoding, honest or not. */

export type ContentType =
  | 'json'
  | 'json-charset'
  | 'json-utf16'
  | 'json-broken'
  | 'vendor-json'
  | 'text'
  | 'form'
  | 'multipart'
  | 'none';
/** `-raw`: the header says compressed, the body is not (issue 11 #7). */
export type Encoding =
  | 'none'
  | 'gzip'
  | 'deflate'
  | 'br'
  | 'gzip-raw'
  | 'deflate-raw'
  | 'br-raw'
  | 'gzip-twice-raw'
  | 'identity'
  | 'unknown';

const formEncode = (body: unknown): string =>
  body instanceof RawJson
    ? encodeText(body.text)
    : body && typeof body === 'object' && !Array.isArray(body)
      ? Object.entries(body)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${encodeText(k)}=${encodeText(typeof v === 'string' ? v : JSON.stringify(v))}`)
          .join('&')
      : encodeText(JSON.stringify(body) ?? '');

export const serialise = (body: unknown, contentType: ContentType): { type?: string; bytes: Buffer } => {
  const json = body instanceof RawJson ? body.text : (JSON.stringify(body) ?? 'null');
  switch (contentType) {
    case 'json':
      return { type: 'application/json', bytes: Buffer.from(json) };
    case 'json-charset':
      return { type: 'application/json; charset=utf-8', bytes: Buffer.from(json) };
    case 'json-utf16':
      return { type: 'application/json; charset=utf-16', bytes: Buffer.from(json, 'utf16le') };
    case 'json-broken':
      return { type: 'application/json', bytes: Buffer.from(json.slice(0, Math.max(1, json.length - 1))) };
    case 'vendor-json':
      return { type: 'application/vnd.api+json', bytes: Buffer.from(json) };
    case 'text':
      return { type: 'text/plain', bytes: Buffer.from(json) };
    case 'form':
      return { type: 'application/x-www-form-urlencoded', bytes: Buffer.from(formEncode(body)) };
    case 'multipart':
      return {
        type: 'multipart/form-data; boundary=fuzzboundary',
        bytes: Buffer.from(
          `--fuzzboundary\r\nContent-Disposition: form-data; name="json"\r\n\r\n${json}\r\n--fuzzboundary--\r\n`,
        ),
      };
    case 'none':
      return { bytes: Buffer.from(json) };
  }
};

export const encode = (bytes: Buffer, encoding: Encoding): { header?: string; bytes: Buffer } => {
  switch (encoding) {
    case 'none':
      return { bytes };
    case 'gzip':
      return { header: 'gzip', bytes: gzipSync(bytes) };
    case 'deflate':
      return { header: 'deflate', bytes: deflateSync(bytes) };
    case 'br':
      return { header: 'br', bytes: brotliCompressSync(bytes) };
    case 'gzip-raw':
      return { header: 'gzip', bytes };
    case 'deflate-raw':
      return { header: 'deflate', bytes };
    case 'br-raw':
      return { header: 'br', bytes };
    case 'gzip-twice-raw':
      return { header: 'gzip, gzip', bytes };
    case 'identity':
      return { header: 'identity', bytes };
    case 'unknown':
      return { header: 'x-fuzz', bytes };
  }
};

export const defaultContentType = (op: Operation): ContentType =>
  op.request.bodyType === 'application/x-www-form-urlencoded' ? 'form' : 'json';

export const CONTENT_TYPES: ContentType[] = [
  'json',
  'json-charset',
  'json-utf16',
  'json-broken',
  'vendor-json',
  'text',
  'form',
  'multipart',
  'none',
];
export const ENCODINGS: Encoding[] = [
  'none',
  'gzip',
  'deflate',
  'br',
  'gzip-raw',
  'deflate-raw',
  'br-raw',
  'gzip-twice-raw',
  'identity',
  'unknown',
];
