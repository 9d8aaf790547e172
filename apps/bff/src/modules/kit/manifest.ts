import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../../lib/repo-root.ts';

/**
 * The partner kit a build serves at /kit: the tarballs of @credit/contract, @credit/sdk and @credit/react that the
 * server's build packed (apps/bff/scripts/build-kit.ts) into `<build>/kit/`, listed by `kit.json`.
 */
export interface KitPackage {
  /** The npm name, `@credit/sdk`. */
  name: string;
  version: string;
  /**
   * The tarball's name under /kit: pnpm's `credit-sdk-0.1.0` and the start of its sha512, so a name never changes
   * content (the tarballs are served as immutable) though a version is packed again with other code.
   */
  file: string;
  size: number;
  /** `sha512-<base64>`, as npm's lockfile records it. */
  integrity: string;
}

export interface KitManifest {
  /** A hash of what the tarballs are made from: the build packs again only when it differs. */
  inputs: string;
  /** In install order: the contract first, then what depends on it. */
  packages: KitPackage[];
}

export const KIT_MANIFEST = 'kit.json';

/** A package's tarball with its bytes, held in memory: the server serves what it was built with, whatever a rebuild does. */
export interface KitFile extends KitPackage {
  bytes: Buffer;
}

/**
 * Where the running server's kit is: beside the bundle it runs from (`<build>/main.js`, `<build>/chunks/…`), or
 * apps/bff/dist/kit when it runs from src/ (tsx, Vitest), as `pnpm build` left it.
 */
export const kitDirectory = (moduleDir = path.dirname(fileURLToPath(import.meta.url))): string => {
  for (const dir of [moduleDir, path.dirname(moduleDir)]) {
    if (existsSync(path.join(dir, 'kit', KIT_MANIFEST))) return path.join(dir, 'kit');
  }
  return path.join(REPO_ROOT, 'apps/bff/dist/kit');
};

export const readKitManifest = (dir: string): KitManifest | undefined => {
  const file = path.join(dir, KIT_MANIFEST);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KitManifest) : undefined;
};

let loaded: { dir: string; files: KitFile[] | undefined } | undefined;

/** The kit's files (read once per process), or undefined when this server was started without one. */
export const loadKit = (dir = kitDirectory()): KitFile[] | undefined => {
  if (loaded?.dir === dir) return loaded.files;
  const manifest = readKitManifest(dir);
  const files = manifest?.packages.map((pkg) => ({ ...pkg, bytes: readFileSync(path.join(dir, pkg.file)) }));
  loaded = { dir, files };
  return files;
};
