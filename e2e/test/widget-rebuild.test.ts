import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetStaticRoutes } from '../../apps/bff/src/modules/widget/routes.ts';
import { KEPT_BUILDS, publishBuild, readRecords, stagingDirFor } from '../../apps/widget/scripts/publish-build.ts';
import { REPO_ROOT } from '../src/built-files.ts';
import { getServed } from '../src/served.ts';

/**
 * A rebuild while frames are open (`pnpm build` beside `pnpm start`): the widget's real Vite build, published into a
 * folder of this test's own, served by the API's own static route. A frame loaded before the rebuild still gets the
 * lazy chunks its entry names, with their old content; the folder keeps no more than the last builds.
 */
const WIDGET_ROOT = path.join(REPO_ROOT, 'apps/widget');
const root = mkdtempSync(path.join(os.tmpdir(), 'widget-rebuild-'));
const served = path.join(root, 'dist');

// Neither Vite (the widget's) nor Express (the server's) is a dependency of e2e: each is loaded from its package.
interface VitePlugin {
  name: string;
  transform?: (code: string, id: string) => string | undefined;
}
interface Vite {
  build(config: object): Promise<unknown>;
}
const importFrom = async <T>(packageDir: string, name: string): Promise<T> =>
  (await import(pathToFileURL(createRequire(path.join(packageDir, 'package.json')).resolve(name)).href)) as T;

/** A side effect in the Report panel's module: its chunk (and so the entry naming it) gets a new hash. */
const markReportPanel = (marker: string): VitePlugin => ({
  name: 'test:mark-report-panel',
  transform: (code, id) =>
    id.endsWith('/report/ReportPanel.tsx') ? `${code}\nglobalThis.__reportBuild = ${JSON.stringify(marker)};\n` : undefined,
});

const buildWidget = async (...plugins: VitePlugin[]) => {
  const vite = await importFrom<Vite>(WIDGET_ROOT, 'vite');
  await vite.build({
    root: WIDGET_ROOT,
    configFile: path.join(WIDGET_ROOT, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: served },
    plugins,
  });
};

let apiUrl = '';
let server: http.Server;
beforeAll(async () => {
  type Express = () => http.RequestListener & { use(...handlers: unknown[]): void };
  const express = (await importFrom<{ default: Express }>(path.join(REPO_ROOT, 'apps/bff'), 'express')).default;
  const app = express();
  app.use(widgetStaticRoutes(path.join(served, 'assets')));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

interface BuiltFrame {
  /** `/widget/assets/…` paths: the entry, its stylesheet and the lazy Report and What-if chunks. */
  urls: string[];
  bodies: Map<string, Buffer>;
}

/** What a frame loaded from the served index.html now would ask for, as the API answers it now. */
const frameOfTheNewestBuild = async (): Promise<BuiltFrame> => {
  const html = readFileSync(path.join(served, 'index.html'), 'utf8');
  const entry = /<script[^>]+src="(\/widget\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const stylesheet = /<link[^>]+href="(\/widget\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  if (!entry || !stylesheet) throw new Error(`index.html names no entry script or stylesheet:\n${html}`);
  const entryCode = (await getServed(`${apiUrl}${entry}`, 'identity')).body.toString('utf8');
  const lazy = [
    ...new Set(
      [...entryCode.matchAll(/(?:ReportPanel|SimulatorPanel)-[\w-]+\.(?:js|css)/g)].map(([name]) => `/widget/assets/${name}`),
    ),
  ];
  expect(
    lazy.filter((url) => url.endsWith('.js')),
    `the entry's lazy chunks: ${lazy.join(', ')}`,
  ).toHaveLength(2);
  const urls = [...new Set([entry, stylesheet, ...lazy])];
  const bodies = new Map<string, Buffer>();
  for (const url of urls) {
    const answer = await getServed(`${apiUrl}${url}`, 'identity');
    expect(answer.status, url).toBe(200);
    bodies.set(url, answer.body);
  }
  return { urls, bodies };
};

/** Every URL of `frame` answers 200 with the same bytes as when the frame loaded, plain and brotli-compressed. */
const expectStillServed = async (frame: BuiltFrame) => {
  for (const url of frame.urls) {
    const plain = await getServed(`${apiUrl}${url}`, 'identity');
    expect(plain.status, url).toBe(200);
    expect(plain.body.equals(frame.bodies.get(url) as Buffer), `${url}: the old content`).toBe(true);
    const compressed = await getServed(`${apiUrl}${url}`, 'br');
    expect([compressed.status, compressed.contentEncoding], url).toEqual([200, 'br']);
  }
};

const expectGone = async (frame: BuiltFrame, shared: Set<string>) => {
  for (const url of frame.urls.filter((url) => !shared.has(url))) {
    expect((await getServed(`${apiUrl}${url}`, 'identity')).status, url).toBe(404);
  }
};

describe('a widget rebuild while frames are open', () => {
  it('keeps serving the chunks of the last builds, and only theirs', { timeout: 120_000 }, async () => {
    await buildWidget(markReportPanel('first'));
    const first = await frameOfTheNewestBuild();

    await buildWidget(markReportPanel('second'));
    const second = await frameOfTheNewestBuild();
    const reportChunk = (frame: BuiltFrame) => frame.urls.find((url) => /ReportPanel-[\w-]+\.js$/.test(url));
    expect(reportChunk(second), 'the changed source gave the Report chunk a new name').not.toBe(reportChunk(first));
    expect(second.urls[0], 'index.html names the new entry').not.toBe(first.urls[0]);
    await expectStillServed(first);
    await expectStillServed(second);

    // Two more builds: the first is now older than the last KEPT_BUILDS, so its files go; the others stay.
    expect(KEPT_BUILDS).toBe(3);
    await buildWidget(markReportPanel('third'));
    const third = await frameOfTheNewestBuild();
    await buildWidget(markReportPanel('fourth'));
    const fourth = await frameOfTheNewestBuild();
    for (const frame of [second, third, fourth]) await expectStillServed(frame);
    await expectGone(first, new Set([...second.urls, ...third.urls, ...fourth.urls]));

    // Bounded: the files of three builds and their compressed copies, one record per build, no staging folder left.
    const builds = readRecords(served);
    expect(builds).toHaveLength(3);
    const named = new Set(builds.flatMap(({ record }) => record.assets));
    const onDisk = readdirSync(path.join(served, 'assets'));
    expect(onDisk.filter((name) => !named.has(name.replace(/\.(?:br|gz)$/, '')))).toEqual([]);
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('an identical rebuild keeps the older builds served: it refreshes its own record', { timeout: 60_000 }, async () => {
    const before = readRecords(served).map(({ record }) => record.assets);
    await buildWidget(markReportPanel('fourth'));
    expect(readRecords(served).map(({ record }) => record.assets)).toEqual(before);
  });

  it('a build that fails publishes nothing and leaves the served build as it was', { timeout: 60_000 }, async () => {
    const index = readFileSync(path.join(served, 'index.html'), 'utf8');
    const assets = readdirSync(path.join(served, 'assets')).sort();
    const failing: VitePlugin = {
      name: 'test:fail',
      transform: (_code, id) => {
        if (id.endsWith('/report/ReportPanel.tsx')) throw new Error('a syntax error in the Report panel');
        return undefined;
      },
    };
    await expect(buildWidget(failing)).rejects.toThrow(/syntax error in the Report panel/);
    expect(readFileSync(path.join(served, 'index.html'), 'utf8')).toBe(index);
    expect(readdirSync(path.join(served, 'assets')).sort()).toEqual(assets);
    expect(readdirSync(root)).toEqual(['dist']);
  });
});

describe('publishing a build', () => {
  const stage = (dir: string, name: string, files: Record<string, string>) => {
    const staging = stagingDirFor(path.join(dir, name), 1);
    mkdirSync(path.join(staging, 'assets'), { recursive: true });
    for (const [file, content] of Object.entries(files)) writeFileSync(path.join(staging, file), content);
    return staging;
  };

  it('keeps what a build served before records existed, as one more previous build', () => {
    const dir = mkdtempSync(path.join(root, 'legacy-'));
    const target = path.join(dir, 'dist');
    mkdirSync(path.join(target, 'assets'), { recursive: true });
    writeFileSync(path.join(target, 'index.html'), 'old index');
    writeFileSync(path.join(target, 'assets', 'index-old.js'), 'old entry');
    writeFileSync(path.join(target, 'assets', 'index-old.js.br'), 'old entry, compressed');
    const staging = stage(dir, 'dist', { 'index.html': 'new index', 'assets/index-new.js': 'new entry' });
    publishBuild({ staging, served: target, publishedAt: new Date(Date.now() + 60_000) });
    expect(readFileSync(path.join(target, 'index.html'), 'utf8')).toBe('new index');
    expect(readdirSync(path.join(target, 'assets')).sort()).toEqual(['index-new.js', 'index-old.js', 'index-old.js.br']);
    expect(existsSync(staging)).toBe(false);
    expect(readRecords(target).map(({ record }) => record.assets)).toEqual([['index-new.js'], ['index-old.js']]);
  });
});
