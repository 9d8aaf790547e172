import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { NextFunction, Request, Response } from 'express';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { chooseEncoding, PRECOMPRESSED, type Precompressed } from './accept-encoding.ts';

/**
 * Where the built widget and loader live; `pnpm build` (run by `pnpm start` and `pnpm test`) writes them. A widget
 * build adds its hashed assets beside those of the builds before it (apps/widget/scripts/publish-build.ts), so a
 * frame loaded before a rebuild still gets the lazy chunks it asks for; index.html always names the newest.
 */
export const WIDGET_DIST_DIR = path.join(REPO_ROOT, 'apps/widget/dist');
export const WIDGET_ASSETS_DIR = path.join(WIDGET_DIST_DIR, 'assets');
export const EMBED_SCRIPT_FILE = path.join(REPO_ROOT, 'packages/embed/dist/embed.js');

export const isBuilt = (file: string) => existsSync(file);

/** Hashed names never change content: a year, and no revalidation. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const SUFFIX: Record<Precompressed, string> = { br: '.br', gzip: '.gz' };

/**
 * What may follow `/widget/assets/`: one plain file name as Vite writes them (`index-BD5Y2AmM.js`). It is
 * matched on the raw, undecoded path, so no `%2f`, `%2e`, `\` or `..` ever reaches the file system, and the
 * precompressed files themselves are not addressable.
 */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;
export const assetFileFor = (name: string, assetsDir = WIDGET_ASSETS_DIR): string | undefined =>
  ASSET_NAME.test(name) && !name.includes('..') && !/\.(?:br|gz)$/.test(name) ? path.join(assetsDir, name) : undefined;

const sizeOf = async (file: string): Promise<number | undefined> => {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
};

/** The file to send and its encoding: the best precompressed variant the client accepts that exists on disk. */
const pickVariant = async (req: Request, file: string) => {
  let available: Precompressed[] = [...PRECOMPRESSED];
  for (;;) {
    const encoding = chooseEncoding(req.headers['accept-encoding'], available);
    if (encoding === 'identity') return { encoding, file, size: await sizeOf(file) };
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
 * Sends a built file, precompressed when the client accepts it (br > gzip > identity), with its own
 * `Content-Type` and `Content-Length` and `Vary: Accept-Encoding` so caches keep one copy per encoding.
 * A missing file goes on to `next()`, where the app's 404 answers.
 */
export const sendBuiltFile = async (
  req: Request,
  res: Response,
  next: NextFunction,
  file: string,
  options: StaticOptions,
): Promise<void> => {
  // A variant without its original is a leftover of another build: never served.
  if ((await sizeOf(file)) === undefined) return next();
  const chosen = await pickVariant(req, file);
  if (chosen.size === undefined) return next();
  res.status(200);
  res.type(path.extname(file));
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
