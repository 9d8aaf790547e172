import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONSOLE_LOCALES } from '../src/i18n.tsx';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** Every file of strings: `messages.ts` and each page's `*-messages.ts`. */
const MESSAGE_FILES = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => /(^|[/-])messages\.ts$/.test(file))
  .sort();

/**
 * Where `es` differs from `en` in shape: a key only one has, a string against a function, a function taking other
 * arguments, an empty string. Each difference is a screen that would show English, or nothing, in Spanish.
 */
const differences = (en: unknown, es: unknown, at: string): string[] => {
  if (typeof en === 'function' || typeof es === 'function') {
    if (typeof en !== typeof es) return [`${at}: a ${typeof en} in en, a ${typeof es} in es`];
    const [a, b] = [en as (...args: unknown[]) => unknown, es as (...args: unknown[]) => unknown];
    return a.length === b.length ? [] : [`${at}: takes ${a.length} arguments in en, ${b.length} in es`];
  }
  if (typeof en === 'string' || typeof es === 'string') {
    if (typeof en !== typeof es) return [`${at}: a ${typeof en} in en, a ${typeof es} in es`];
    return (es as string).trim() === '' || (en as string).trim() === '' ? [`${at}: empty`] : [];
  }
  if (en && es && typeof en === 'object' && typeof es === 'object') {
    const keys = new Set([...Object.keys(en), ...Object.keys(es)]);
    return [...keys].flatMap((key) => {
      if (!(key in en)) return [`${at}.${key}: only in es`];
      if (!(key in es)) return [`${at}.${key}: only in en`];
      return differences((en as Record<string, unknown>)[key], (es as Record<string, unknown>)[key], `${at}.${key}`);
    });
  }
  return en === es ? [] : [`${at}: ${String(en)} in en, ${String(es)} in es`];
};

describe('the console’s strings', () => {
  it('are in files of messages the test finds', () => {
    expect(MESSAGE_FILES).toEqual(
      expect.arrayContaining([
        'messages.ts',
        'pages/program-messages.ts',
        'pages/offers-messages.ts',
        'pages/sandbox-messages.ts',
      ]),
    );
  });

  it.each(MESSAGE_FILES)('%s: every messages object says in Spanish all it says in English', async (file) => {
    const module = (await import(path.join(SRC, file))) as Record<string, unknown>;
    const objects = Object.entries(module).filter(
      ([, value]) => value && typeof value === 'object' && CONSOLE_LOCALES.every((locale) => locale in value),
    );
    expect(objects.length, `${file} exports no { en, es } object`).toBeGreaterThan(0);
    for (const [name, value] of objects) {
      const { en, es } = value as Record<'en' | 'es', unknown>;
      expect(differences(en, es, name), name).toEqual([]);
    }
  });
});
