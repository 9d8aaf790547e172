import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './built-files.ts';

const CONSOLE_SRC = path.join(REPO_ROOT, 'apps/console/src');

/** The string leaves of `en` whose Spanish (the same place in `es`) says something else. */
const englishOnly = (en: unknown, es: unknown, into: Set<string>): void => {
  if (typeof en === 'string') {
    if (en !== es) into.add(en.trim());
    return;
  }
  if (en && typeof en === 'object' && es && typeof es === 'object') {
    for (const [key, value] of Object.entries(en)) englishOnly(value, (es as Record<string, unknown>)[key], into);
  }
};

/**
 * Every English string of the console's messages (apps/console/src: `messages.ts`, `pages/*-messages.ts`) that its
 * Spanish does not share: what a page in Spanish must not show. Read from the sources, so a new string is checked too.
 */
export const consoleEnglishStrings = async (): Promise<Set<string>> => {
  const files = readdirSync(CONSOLE_SRC, { recursive: true, encoding: 'utf8' }).filter((f) => /(^|[/-])messages\.ts$/.test(f));
  const strings = new Set<string>();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(CONSOLE_SRC, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (value && typeof value === 'object' && 'en' in value && 'es' in value) englishOnly(value.en, value.es, strings);
    }
  }
  return strings;
};

/**
 * The console's English strings the page shows: a line or cell of its text that is one, or holds one of three words or
 * more (a shorter one inside a line could be data: an offer's name, an event's type).
 */
export const englishShown = async (page: Page, english: Set<string>): Promise<string[]> => {
  // biome-ignore lint/performance/useDomNodeTextContent: what a person sees, without hidden text, is the point.
  const text = await page.locator('body').innerText();
  const lines = text
    .split(/[\n\t]/)
    .map((line) => line.trim())
    .filter(Boolean);
  return [...english].filter((s) => lines.some((line) => line === s || (s.split(/\s+/).length >= 3 && line.includes(s))));
};
