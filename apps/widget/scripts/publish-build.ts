/**
 * How a widget build reaches the folder the API serves (apps/widget/dist) without breaking a frame already open.
 *
 * A frame keeps the entry script it loaded and downloads its lazy chunks (the Report, the What-if tool, the history
 * chart) only when a tab first opens, maybe long after a rebuild during `pnpm start`. So a build never replaces the
 * served folder whole: Vite writes into a staging folder beside it (`dist.building-<pid>`), then `publishBuild` moves
 * the new hashed assets in beside the old ones, swaps `index.html` (not hashed, the only file that names the newest
 * build) last, and prunes assets no longer named by one of the last `KEPT_BUILDS` builds.
 *
 * Every build leaves a record, `builds/<id>.json`, of the asset files it wrote; the id comes from that list, so an
 * identical rebuild refreshes its record instead of pushing an older build out. A record is written before its files
 * arrive, so a build publishing at the same time never prunes them. Each step is a rename, atomic on one file system:
 * a request finds the old file or the new one, never half of one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Builds whose assets stay served: the newest and the two before it. */
export const KEPT_BUILDS = 3;

const ASSETS = 'assets';
const RECORDS = 'builds';
const INDEX = 'index.html';
/** Precompressed copies (see vite.config.ts) go and stay with their original. */
const VARIANT = /\.(?:br|gz)$/;

export interface BuildRecord {
  publishedAt: string;
  /** File names under assets/ this build wrote, without their `.br`/`.gz` copies. */
  assets: string[];
}

/** Where a build for `served` writes first: a sibling, so every move into `served` is a rename on one file system. */
export const stagingDirFor = (served: string, pid = process.pid): string => `${served}.building-${pid}`;

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Staging folders a killed build left beside `served` (not those of a build still running). */
export const removeAbandonedStaging = (served: string): void => {
  const parent = path.dirname(served);
  if (!existsSync(parent)) return;
  const prefix = `${path.basename(served)}.building-`;
  for (const name of readdirSync(parent)) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : Number.NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid)) {
      rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
};

const listFiles = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : [])) : [];

/** Writes beside the target and renames over it: a reader never sees half a file. */
const writeWhole = (file: string, content: string): void => {
  const temporary = `${file}.tmp-${process.pid}`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
};

const recordId = (assets: string[]): string => createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 16);

const writeRecord = (served: string, assets: string[], publishedAt: Date): void => {
  const dir = path.join(served, RECORDS);
  mkdirSync(dir, { recursive: true });
  const record: BuildRecord = { publishedAt: publishedAt.toISOString(), assets };
  writeWhole(path.join(dir, `${recordId(assets)}.json`), `${JSON.stringify(record, null, 2)}\n`);
};

/** Records, newest first; one that does not parse is dropped (its files go with the next prune). */
export const readRecords = (served: string): { file: string; record: BuildRecord }[] => {
  const dir = path.join(served, RECORDS);
  return listFiles(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const file = path.join(dir, name);
      try {
        const record = JSON.parse(readFileSync(file, 'utf8')) as BuildRecord;
        if (typeof record.publishedAt === 'string' && Array.isArray(record.assets)) return [{ file, record }];
      } catch {}
      rmSync(file, { force: true });
      return [];
    })
    .sort((a, b) => b.record.publishedAt.localeCompare(a.record.publishedAt) || a.file.localeCompare(b.file));
};

/**
 * A served folder from before records existed (a build that emptied it whole) holds one build: recorded as it is,
 * so the first publish keeps it served like any other previous build.
 */
const recordUnrecordedBuild = (served: string): void => {
  const assets = listFiles(path.join(served, ASSETS)).filter((name) => !VARIANT.test(name));
  if (existsSync(path.join(served, RECORDS)) || assets.length === 0) return;
  const index = path.join(served, INDEX);
  writeRecord(served, assets.sort(), existsSync(index) ? statSync(index).mtime : new Date(0));
};

/** Deletes the records beyond the newest `keep`, and every asset (with its copies) none of the kept ones names. */
export const pruneBuilds = (served: string, keep = KEPT_BUILDS): void => {
  const records = readRecords(served);
  for (const { file } of records.slice(keep)) rmSync(file, { force: true });
  const named = new Set(records.slice(0, keep).flatMap(({ record }) => record.assets));
  const assetsDir = path.join(served, ASSETS);
  for (const name of listFiles(assetsDir)) {
    if (!named.has(name.replace(VARIANT, ''))) rmSync(path.join(assetsDir, name), { force: true });
  }
};

export interface PublishOptions {
  /** The folder Vite wrote this build into. */
  staging: string;
  /** The folder the API serves. */
  served: string;
  keep?: number;
  publishedAt?: Date;
}

/** Moves a finished build from `staging` into `served` (see the top of this file) and removes `staging`. */
export const publishBuild = ({ staging, served, keep = KEPT_BUILDS, publishedAt = new Date() }: PublishOptions): void => {
  const stagedAssets = path.join(staging, ASSETS);
  const servedAssets = path.join(served, ASSETS);
  const files = listFiles(stagedAssets);
  mkdirSync(servedAssets, { recursive: true });
  recordUnrecordedBuild(served);
  writeRecord(served, files.filter((name) => !VARIANT.test(name)).sort(), publishedAt);
  // Copies before originals: the server sends a copy only beside its original, so none is ever served alone.
  const copiesFirst = [...files.filter((name) => VARIANT.test(name)), ...files.filter((name) => !VARIANT.test(name))];
  for (const name of copiesFirst) renameSync(path.join(stagedAssets, name), path.join(servedAssets, name));
  // The rest of the build (index.html) last: once it names the new assets, they are all there.
  const rest = listFiles(staging);
  for (const name of [...rest.filter((name) => name !== INDEX), ...rest.filter((name) => name === INDEX)]) {
    renameSync(path.join(staging, name), path.join(served, name));
  }
  pruneBuilds(served, keep);
  rmSync(staging, { recursive: true, force: true });
};
