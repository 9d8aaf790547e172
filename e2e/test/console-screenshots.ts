import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../src/built-files.ts';

/** The console guide's pictures (docs/partner/console.md links them), retaken by the journeys on every run. */
export const CONSOLE_DOC_SHOTS = path.join(REPO_ROOT, 'docs/partner/console');

/** Copies the journey's latest screenshot into the guide's folder as `<name>.png`. */
export const keepForGuide = async (screenshots: readonly string[], name: string): Promise<void> => {
  const latest = screenshots.at(-1);
  if (!latest) throw new Error(`no screenshot taken before ${name}`);
  await mkdir(CONSOLE_DOC_SHOTS, { recursive: true });
  await copyFile(latest, path.join(CONSOLE_DOC_SHOTS, `${name}.png`));
};
