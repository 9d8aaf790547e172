import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Device } from './browser.ts';
import { E2E_ROOT } from './built-files.ts';

/** Ignored by git: pictures of each screen for people reviewing the widget, not golden files. */
export const SCREENSHOT_DIR = path.join(E2E_ROOT, 'screenshots');

export const saveScreenshot = async (page: Page, name: string, device: Device): Promise<string> => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}-${device}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
};
