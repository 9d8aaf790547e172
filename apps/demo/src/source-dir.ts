import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This package's src/ folder, where the demo keeps files it reads at run time (public/, the React page's client.tsx).
 * Found from the workspace root (the folder above holding pnpm-workspace.yaml), not from `import.meta.url` alone: the
 * API's build bundles this package into apps/bff/dist/, where `import.meta.url` is the bundle's, not this file's.
 */
const findSourceDir = (): string => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return path.join(dir, 'apps/demo/src');
    if (path.dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml in ${here} or any folder above it`);
  }
};

export const DEMO_SOURCE_DIR = findSourceDir();
