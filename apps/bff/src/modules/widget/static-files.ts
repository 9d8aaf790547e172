import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** Where the built widget and loader live; `pnpm build` (run by `pnpm start` and `pnpm test`) writes them. */
export const WIDGET_DIST_DIR = path.join(repoRoot, 'apps/widget/dist');
export const EMBED_SCRIPT_FILE = path.join(repoRoot, 'packages/embed/dist/embed.js');

export const isBuilt = (file: string) => existsSync(file);
