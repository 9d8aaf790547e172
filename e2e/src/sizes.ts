import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { EMBED_SCRIPT, WIDGET_DIST, WIDGET_INDEX } from './built-files.ts';

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
