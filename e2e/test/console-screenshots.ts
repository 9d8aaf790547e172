import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../src/built-files.ts';

/** The console guide's pictures (docs/partner/console.md links them), kept in git. */
export const CONSOLE_DOC_SHOTS = path.join(REPO_ROOT, 'docs/partner/console');

/**
 * Whether the journeys retake the guide's pictures: only when asked (`CONSOLE_SCREENSHOTS=1`), so a test run leaves
 * the tree as it found it; a picture the guide lacks is taken anyway.
 */
export const refreshGuideShots = (): boolean => process.env.CONSOLE_SCREENSHOTS === '1';

/** Copies the journey's latest screenshot into the guide's folder as `<name>.png`, when asked or when it is missing. */
export const keepForGuide = async (screenshots: readonly string[], name: string): Promise<void> => {
  const target = path.join(CONSOLE_DOC_SHOTS, `${name}.png`);
  if (!refreshGuideShots() && existsSync(target)) return;
  const latest = screenshots.at(-1);
  if (!latest) throw new Error(`no screenshot taken before ${name}`);
  await mkdir(CONSOLE_DOC_SHOTS, { recursive: true });
  await copyFile(latest, target);
};
