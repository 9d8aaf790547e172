/**
 * The partner kit in the server's build (scripts/build.ts): the tarballs of @credit/contract, @credit/sdk and
 * @credit/react, packed by `scripts/release-pack.mjs --no-tools` (pnpm pack: the package's prepack build, its
 * publishConfig, `workspace:*` replaced by versions; the contents checked, without publint and attw, which
 * `pnpm release:pack` runs) into `<build>/kit/` with kit.json, which src/modules/kit/ serves at /kit.
 *
 * Packing builds three packages with declarations (about 10 s), so its result is kept in
 * node_modules/.cache/credit-kit/<hash of its inputs>/ and a build whose packages did not change copies it (a few ms).
 * Builds that pack at the same time (a test run's and `pnpm start`'s) take turns: pnpm pack writes each package's
 * dist/, which two packs of one package would both clean and write.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { KIT_MANIFEST, type KitManifest, type KitPackage, readKitManifest } from '../src/modules/kit/manifest.ts';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const ROOT = path.resolve(PACKAGE_DIR, '../..');
const CACHE_DIR = path.join(PACKAGE_DIR, 'node_modules/.cache/credit-kit');
const LOCK = path.join(CACHE_DIR, '.lock');

/**
 * What the tarballs are made from: the three packages (and @credit/embed, whose constants @credit/react bundles)
 * without their node_modules, dist/ and tests; the lockfile (tsup's version, the dependencies' ranges); the pack script.
 */
const INPUT_DIRS = ['packages/contract', 'packages/sdk', 'packages/react', 'packages/embed'];
const NOT_INPUTS = new Set(['node_modules', 'dist', 'test']);
const INPUT_FILES = ['pnpm-lock.yaml', 'scripts/release-pack.mjs'];

const filesUnder = (dir: string, top = true): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => !(top && NOT_INPUTS.has(entry.name)))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(file, false);
      return entry.isFile() ? [file] : [];
    });

export const kitInputsHash = (): string => {
  const hash = createHash('sha256');
  for (const file of [...INPUT_DIRS.flatMap((dir) => filesUnder(dir)), ...INPUT_FILES]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 32);
};

/** Whether a process holding a lock is still alive (EPERM: alive, owned by another user). */
export const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Runs `work` while this process holds the packing lock (a folder, made atomically); a dead holder's is taken over. */
const whileLocked = async <T>(work: () => Promise<T>): Promise<T> => {
  mkdirSync(CACHE_DIR, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(existsSync(path.join(LOCK, 'pid')) ? readFileSync(path.join(LOCK, 'pid'), 'utf8') : NaN);
      // No pid a minute after the folder was made: its maker died in between.
      const abandoned = Number.isNaN(holder) ? Date.now() - statSync(LOCK).mtimeMs > 60_000 : !isRunning(holder);
      if (abandoned) rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
};

const onPath = (command: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));

/**
 * release-pack.mjs runs `pnpm pack`, and the SDK's prepack runs pnpm again: under `pnpm build` or `pnpm start` pnpm is
 * on PATH; from a bare `npx vitest` it may not be, and npx brings the version package.json's packageManager names.
 */
const packCommand = (out: string): [string, string[]] => {
  const script = [path.join(ROOT, 'scripts/release-pack.mjs'), '--out', out, '--json', '--no-tools'];
  if (onPath('pnpm')) return [process.execPath, script];
  const { packageManager } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string };
  return ['npx', ['--yes', '--package', packageManager, '--', 'node', ...script]];
};

/** Packs the kit into `dir` (tarballs named with their sha512's start, and kit.json), made beside it and renamed. */
const packInto = async (dir: string, inputs: string): Promise<void> => {
  const work = `${dir}.packing-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    const [command, args] = packCommand(path.join(work, 'packed'));
    const { stdout } = await promisify(execFile)(command, args, {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`packing the partner kit failed (scripts/release-pack.mjs):\n${error.stderr || error.message}`);
    });
    const lastLine = stdout.trim().split('\n').at(-1) ?? '[]';
    const packed = JSON.parse(lastLine) as { name: string; version: string; tarball: string }[];
    const kit = path.join(work, 'kit');
    mkdirSync(kit);
    const packages: KitPackage[] = packed.map(({ name, version, tarball }) => {
      const bytes = readFileSync(tarball);
      const sha512 = createHash('sha512').update(bytes).digest();
      const file = `${path.basename(tarball, '.tgz')}-${sha512.toString('hex').slice(0, 12)}.tgz`;
      writeFileSync(path.join(kit, file), bytes);
      return { name, version, file, size: bytes.length, integrity: `sha512-${sha512.toString('base64')}` };
    });
    const manifest: KitManifest = { inputs, packages };
    writeFileSync(path.join(kit, KIT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(kit, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

/** The kit into `into` (a folder of the build being made): packed when its inputs changed, else copied from the cache. */
export const buildKit = async (into: string): Promise<{ manifest: KitManifest; packed: boolean }> => {
  const inputs = kitInputsHash();
  const cached = path.join(CACHE_DIR, inputs);
  let packed = false;
  if (!readKitManifest(cached)) {
    await whileLocked(async () => {
      if (readKitManifest(cached)) return; // another build packed it while this one waited
      await packInto(cached, inputs);
      packed = true;
      // Earlier packings of changed packages are never asked for again.
      for (const name of readdirSync(CACHE_DIR)) {
        if (name !== inputs && !name.startsWith('.')) rmSync(path.join(CACHE_DIR, name), { recursive: true, force: true });
      }
    });
  }
  cpSync(cached, into, { recursive: true });
  return { manifest: readKitManifest(into) as KitManifest, packed };
};
