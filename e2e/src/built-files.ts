import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const E2E_ROOT = path.join(REPO_ROOT, 'e2e');
export const WIDGET_DIST = path.join(REPO_ROOT, 'apps/widget/dist');
export const WIDGET_INDEX = path.join(WIDGET_DIST, 'index.html');
export const EMBED_SCRIPT = path.join(REPO_ROOT, 'packages/embed/dist/embed.js');
export const CONSOLE_DIST = path.join(REPO_ROOT, 'apps/console/dist');
export const CONSOLE_INDEX = path.join(CONSOLE_DIST, 'index.html');

/** The API serves the built widget and loader; without them every journey would fail for a dull reason. */
export const assertBuilt = (): void => {
  const missing = [WIDGET_INDEX, EMBED_SCRIPT].filter((file) => !existsSync(file));
  if (missing.length) {
    throw new Error(
      `Missing ${missing.map((file) => path.relative(REPO_ROOT, file)).join(' and ')}: run \`pnpm build\` before the e2e tests.`,
    );
  }
};
