import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { CONSOLE_DIST, CONSOLE_INDEX, EMBED_SCRIPT, WIDGET_DIST, WIDGET_INDEX } from './built-files.ts';

export const EMBED_BUDGET_BYTES = 5 * 1024;
export const WIDGET_FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

export interface SizeReport {
  embedGzip: number;
  /** The scripts a browser fetches before the widget can render: the entry and its modulepreloaded chunks. */
  firstLoadFiles: { file: string; gzip: number }[];
  firstLoadGzip: number;
}

/** `/widget/assets/x.js` (as index.html names it, under the app's base) → the file in dist. */
const distFile = (url: string) => path.join(WIDGET_DIST, url.replace(/^(\.\/|\/widget\/|\/)/, ''));

/** Script URLs index.html loads up front; lazy chunks (the history chart) appear only in import() calls. */
export const firstLoadScripts = (html: string): string[] => {
  const urls = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isEntry = tag.startsWith('<script') && /\btype=["']module["']/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel=["']modulepreload["']/.test(tag);
    const url = /\b(?:src|href)=["']([^"']+\.js)["']/.exec(tag)?.[1];
    if ((isEntry || isPreload) && url) urls.add(url);
  }
  return [...urls];
};

export const measureSizes = (): SizeReport => {
  const scripts = firstLoadScripts(readFileSync(WIDGET_INDEX, 'utf8'));
  if (!scripts.length) throw new Error(`${WIDGET_INDEX} loads no module script: is it the built file?`);
  const firstLoadFiles = scripts.map((url) => ({
    file: path.relative(WIDGET_DIST, distFile(url)),
    gzip: gzipSize(distFile(url)),
  }));
  return {
    embedGzip: gzipSize(EMBED_SCRIPT),
    firstLoadFiles,
    firstLoadGzip: firstLoadFiles.reduce((sum, f) => sum + f.gzip, 0),
  };
};

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const formatSizes = (report: SizeReport): string =>
  [
    `embed.js: ${kb(report.embedGzip)} gzip (budget ${kb(EMBED_BUDGET_BYTES)})`,
    `widget first-load JS: ${kb(report.firstLoadGzip)} gzip (budget ${kb(WIDGET_FIRST_LOAD_BUDGET_BYTES)})`,
    ...report.firstLoadFiles.map((f) => `  ${f.file}: ${kb(f.gzip)}`),
  ].join('\n');

/**
 * The console's budgets (docs/partner/console.md): what a staff member's browser downloads to sign in and open any
 * page, and the Program page's chart, its own chunk loaded only when the chart is drawn. Raw and brotli bytes (the
 * API serves the `.br` files the build writes); a little above the sizes of 2026-12: 359 KiB and 93 KiB first,
 * 370 KiB and 87 KiB the chart.
 */
export const CONSOLE_FIRST_LOAD_BUDGET = { raw: 380 * 1024, brotli: 100 * 1024 };
export const CONSOLE_CHART_BUDGET = { raw: 390 * 1024, brotli: 95 * 1024 };

export interface ConsoleChunk {
  file: string;
  raw: number;
  brotli: number;
}

export interface ConsoleSizeReport {
  /** The entry and its modulepreloaded chunks: what signing in downloads. */
  firstLoad: ConsoleChunk[];
  /** Chunks the first load imports only when a page needs them (`import()`), by file name. */
  lazy: ConsoleChunk[];
}

const consoleFile = (url: string) => path.join(CONSOLE_DIST, url.replace(/^(\.\/|\/console\/|\/)/, ''));

/** A built file's sizes: as written, and as served to a browser that accepts brotli (the `.br` the build wrote). */
const consoleChunk = (file: string): ConsoleChunk => {
  const brotliFile = `${file}.br`;
  return {
    file: path.relative(CONSOLE_DIST, file),
    raw: statSync(file).size,
    brotli: existsSync(brotliFile)
      ? statSync(brotliFile).size
      : brotliCompressSync(readFileSync(file), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};

/** The lazy chunks a script names in `import("./x.js")` (Vite writes them beside it), and theirs in turn. */
const lazyChunksOf = (files: string[]): string[] => {
  const found = new Set<string>();
  const queue = [...files];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\(\s*[`'"]\.\/([^`'"]+\.js)[`'"]\s*\)/g)) {
      const chunk = path.join(path.dirname(file), match[1] as string);
      if (!files.includes(chunk) && !found.has(chunk)) {
        found.add(chunk);
        queue.push(chunk);
      }
    }
  }
  return [...found];
};

/** The console's chunks as its index.html loads them (dist also keeps earlier builds' files, which no page loads). */
export const measureConsoleSizes = (): ConsoleSizeReport => {
  const scripts = firstLoadScripts(readFileSync(CONSOLE_INDEX, 'utf8')).map(consoleFile);
  if (!scripts.length) throw new Error(`${CONSOLE_INDEX} loads no module script: is it the built file?`);
  return { firstLoad: scripts.map(consoleChunk), lazy: lazyChunksOf(scripts).map(consoleChunk) };
};

export const totalOf = (chunks: ConsoleChunk[]) => ({
  raw: chunks.reduce((sum, c) => sum + c.raw, 0),
  brotli: chunks.reduce((sum, c) => sum + c.brotli, 0),
});

export const formatConsoleSizes = (report: ConsoleSizeReport): string => {
  const first = totalOf(report.firstLoad);
  const line = (c: ConsoleChunk) => `  ${c.file}: ${kb(c.raw)} raw, ${kb(c.brotli)} brotli`;
  return [
    `console first load: ${kb(first.raw)} raw, ${kb(first.brotli)} brotli ` +
      `(budget ${kb(CONSOLE_FIRST_LOAD_BUDGET.raw)}, ${kb(CONSOLE_FIRST_LOAD_BUDGET.brotli)})`,
    ...report.firstLoad.map(line),
    `console lazy chunks (chart budget ${kb(CONSOLE_CHART_BUDGET.raw)}, ${kb(CONSOLE_CHART_BUDGET.brotli)}):`,
    ...report.lazy.map(line),
  ].join('\n');
};
