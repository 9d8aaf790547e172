import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Device } from './browser.ts';
import { E2E_ROOT } from './built-files.ts';

/** Ignored by git: pictures of each screen for people reviewing the widget, not golden files. */
export const SCREENSHOT_DIR = path.join(E2E_ROOT, 'screenshots');

/**
 * A full-page picture. Chromium paints a cross-origin iframe only inside the viewport, so a plain
 * fullPage capture leaves the widget's lower part blank: the viewport grows to the page for the shot.
 */
const nextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

export const saveScreenshot = async (page: Page, name: string, device: Device): Promise<string> => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}-${device}.png`);
  const viewport = page.viewportSize();
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  const grow = viewport !== null && pageHeight > viewport.height;
  if (grow) {
    await page.setViewportSize({ width: viewport.width, height: pageHeight });
    // Let every frame (the widget's runs in its own process) paint the newly visible area.
    await Promise.all(page.frames().map((frame) => frame.evaluate(nextPaint).catch(() => {})));
  }
  try {
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  } finally {
    if (grow) await page.setViewportSize(viewport);
  }
  return file;
};
