import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/repo-root.ts';

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

/**
 * What may follow `/widget/assets/`: one plain file name as Vite writes them (`index-BD5Y2AmM.js`). It is
 * matched on the raw, undecoded path, so no `%2f`, `%2e`, `\` or `..` ever reaches the file system, and the
 * precompressed files themselves are not addressable.
 */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;
export const assetFileFor = (name: string, assetsDir = WIDGET_ASSETS_DIR): string | undefined =>
  ASSET_NAME.test(name) && !name.includes('..') && !/\.(?:br|gz)$/.test(name) ? path.join(assetsDir, name) : undefined;
