/** Playwright journeys across origins, driven from Vitest against the in-process API. */
export * from './a11y.ts';
export * from './browser.ts';
export * from './built-files.ts';
export * from './cls.ts';
export * from './demo-bank.ts';
export * from './failures.ts';
export * from './overflow.ts';
export * from './pages.ts';
export * from './recording-proxy.ts';
export * from './screen-check.ts';
export * from './screenshots.ts';
export * from './served.ts';
export * from './servers.ts';
export * from './sizes.ts';
export * from './users.ts';
export * from './visibility.ts';
