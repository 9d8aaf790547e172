import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInPlaceOf } from '../scripts/build.ts';

/** scripts/build.ts replaces a build whole: what a run that reads dist/ while another builds it relies on. */
const root = mkdtempSync(path.join(os.tmpdir(), 'build-swap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const outdirWith = (name: string, content: string) => {
  const outdir = path.join(root, name);
  mkdirSync(outdir);
  writeFileSync(path.join(outdir, 'main.js'), content);
  return outdir;
};
const writeBuild = (content: string) => async (staging: string) => {
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'main.js'), content);
};

describe('building in place of the last build', () => {
  it('swaps the new build in whole and leaves nothing beside it', async () => {
    const outdir = outdirWith('dist-a', 'old');
    writeFileSync(path.join(outdir, 'gone.js'), 'only in the old build');
    await buildInPlaceOf(outdir, writeBuild('new'));
    expect(readdirSync(outdir)).toEqual(['main.js']);
    expect(readFileSync(path.join(outdir, 'main.js'), 'utf8')).toBe('new');
    expect(readdirSync(root).filter((name) => name.startsWith('dist-a.'))).toEqual([]);
  });

  it('keeps the last build when the new one fails, and cleans up what it wrote', async () => {
    const outdir = outdirWith('dist-b', 'old');
    const failing = async (staging: string) => {
      await writeBuild('half')(staging);
      throw new Error('esbuild failed');
    };
    await expect(buildInPlaceOf(outdir, failing)).rejects.toThrow('esbuild failed');
    expect(readFileSync(path.join(outdir, 'main.js'), 'utf8')).toBe('old');
    expect(readdirSync(root).filter((name) => name.startsWith('dist-b.'))).toEqual([]);
  });

  it('removes what a killed build left, not what a running one is writing', async () => {
    const outdir = outdirWith('dist-c', 'old');
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const abandoned = `${outdir}.building-${dead.pid}`;
    const inProgress = `${outdir}.building-${running.pid}`;
    mkdirSync(abandoned);
    mkdirSync(inProgress);
    try {
      await buildInPlaceOf(outdir, writeBuild('new'));
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(inProgress)).toBe(true);
    } finally {
      running.kill();
    }
  });
});
