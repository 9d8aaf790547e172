import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

/** Debian's Chromium: playwright-core downloads no browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Quiet, reproducible runs: no background traffic, updates or sync competing with the page under test.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export const launchBrowser = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: the journeys need Debian's browser. Install it with \`apt-get install chromium\` ` +
        '(or point CHROMIUM_PATH at another Chromium binary).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
};

let shared: Promise<Browser> | undefined;

/**
 * For tests: one Chromium per process (a Vitest worker runs file after file), started on first use, instead of a
 * launch and a shutdown per file. Each call answers a handle on it whose `newContext` contexts are its own and whose
 * `close()` closes those contexts (their pages, cookies and storage) and leaves the browser to the next file; nothing a
 * page keeps lives outside its context. Playwright ends the browser when the process ends. Scripts that must exit
 * on their own (the bench) use `launchBrowser`.
 */
export const sharedBrowser = async (): Promise<Browser> => {
  if (!shared || !(await shared.catch(() => undefined))?.isConnected()) shared = launchBrowser();
  const browser = await shared;
  const contexts = new Set<BrowserContext>();
  const handle = {
    newContext: async (options?: BrowserContextOptions) => {
      const context = await browser.newContext(options);
      contexts.add(context);
      context.once('close', () => contexts.delete(context));
      return context;
    },
    contexts: () => [...contexts],
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close()));
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(handle, property)) return handle[property as keyof typeof handle];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

export type Device = 'desktop' | 'mobile';

export const DEVICES: Record<Device, BrowserContextOptions> = {
  desktop: { viewport: { width: 1280, height: 800 } },
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors, console errors and failed or refused requests of the page and its frames, to explain a failing journey. */
  problems: string[];
}

export const openPage = async (browser: Browser, device: Device = 'desktop', options: BrowserContextOptions = {}) => {
  // Reduced motion: the widget must honour it, and pictures taken mid-animation (the chart's line) show nothing useful.
  const context = await browser.newContext({ ...DEVICES[device], reducedMotion: 'reduce', ...options });
  // Every wait in a journey is for something a person would see within seconds; fail fast and say what.
  context.setDefaultTimeout(15_000);
  // tsx (the bench) compiles with keepNames, so functions passed to page.evaluate call esbuild's `__name`.
  await context.addInitScript('globalThis.__name ??= (fn) => fn;');
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error (${message.location().url}): ${message.text()}`);
  });
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return { context, page, problems } satisfies OpenedPage;
};
