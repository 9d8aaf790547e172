import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { chooseEncoding, PRECOMPRESSED, type Precompressed } from './accept-encoding.ts';

const SUFFIX: Record<Precompressed, string> = { br: '.br', gzip: '.gz' };

/** The types of what the builds write (the widget's, the console's and the loader's files). */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/vnd.microsoft.icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const sizeOf = async (file: string): Promise<number | undefined> => {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
};

export interface BuiltVariant {
  encoding: Precompressed | 'identity';
  /** The file on disk: the original, or its `.br` or `.gz` beside it. */
  file: string;
  size: number;
}

/**
 * The variant of a built file to send: the best precompressed one the client accepts (br > gzip > identity) that
 * exists on disk, or undefined when the file is missing (a variant without its original is a leftover of another
 * build, never served).
 */
const builtVariant = async (file: string, acceptEncoding: string | undefined): Promise<BuiltVariant | undefined> => {
  if ((await sizeOf(file)) === undefined) return undefined;
  let available: Precompressed[] = [...PRECOMPRESSED];
  for (;;) {
    const encoding = chooseEncoding(acceptEncoding, available);
    if (encoding === 'identity') {
      const size = await sizeOf(file);
      return size === undefined ? undefined : { encoding, file, size };
    }
    const variant = `${file}${SUFFIX[encoding]}`;
    const size = await sizeOf(variant);
    if (size !== undefined) return { encoding, file: variant, size };
    available = available.filter((coding) => coding !== encoding);
  }
};

export interface StaticOptions {
  cacheControl: string;
  /** Readable by pages of other origins (the loader, loaded by partners' `<script>` tags). */
  crossOrigin?: boolean;
}

/**
 * Sends a built file, precompressed when the client accepts it, with its own `Content-Type` and `Content-Length` and
 * `Vary: Accept-Encoding` so caches keep one copy per encoding. A missing file goes on to `next()`, where the app's
 * 404 answers.
 */
export const sendBuiltFile = async (
  req: { method: string; headers: IncomingHttpHeaders },
  res: ServerResponse,
  next: () => void,
  file: string,
  options: StaticOptions,
): Promise<void> => {
  const chosen = await builtVariant(file, req.headers['accept-encoding']);
  if (!chosen) return next();
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Vary', 'Accept-Encoding');
  if (chosen.encoding !== 'identity') res.setHeader('Content-Encoding', chosen.encoding);
  res.setHeader('Content-Length', String(chosen.size));
  res.setHeader('Cache-Control', options.cacheControl);
  if (options.crossOrigin) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // A client that hangs up mid-file (or a rebuild that removes it) ends this response only: nothing to report.
  await pipeline(createReadStream(chosen.file), res).catch(() => res.destroy());
};
