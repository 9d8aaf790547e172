import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The workspace's root: the nearest folder at or above `from` holding pnpm-workspace.yaml. Found by walking up, not
 * by a fixed number of `..`, so that a file finds the same root from its source (src/…, under tsx or Vitest) and from
 * the build, where it is bundled into apps/bff/dist/ at another depth.
 */
export const findRepoRoot = (from: string): string => {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml in ${from} or any folder above it`);
  }
};

/** This checkout's root: where the server finds the built widget and loader (modules/widget/static-files.ts). */
export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));
