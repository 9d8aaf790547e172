import type { CreditClient } from '@credit/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openMigratedTestDb } from '../../apps/bff/test/helpers/test-db.ts';
import { sharedBrowser } from './browser.ts';
import { assertBuilt } from './built-files.ts';
import { partnerPageHtml } from './pages.ts';
import { createPartner, type Partner, type RunningServer, servePage, startApi, startDemo, type TestApp } from './servers.ts';

export interface DemoBankOptions {
  /** Where the partner may embed the widget from. Default: any port on localhost. */
  embedOrigins?: string[];
  /** Start the demo bank (on localhost) for the partner. Default: true. */
  demo?: boolean;
  /** Also serve a bare partner page on localhost, for journeys that call the loader themselves. Default: false. */
  partnerPage?: boolean;
  /** The partner's client name; its sandbox sample offers are named after it. Default: the harness's "Test bank n". */
  clientName?: string;
}

export interface DemoBank {
  browser: Browser;
  app: TestApp;
  partner: Partner;
  /** The demo bank; only with `demo` (the default). */
  demo: RunningServer;
  /** A bare page with the loader on localhost; only with `partnerPage: true`. */
  partnerPage: RunningServer;
  /** The SDK signed in as the partner (every scope, admin included, for the sandbox routes). */
  sdk: CreditClient;
}

/**
 * The journeys' common setup, as hooks of the calling `describe`: before all its tests, Chromium and the API,
 * one partner, and the demo bank and/or a bare partner page; after them, all of it closed again.
 * The fields are there once the hooks ran (inside tests and later hooks), not while the suite is being collected.
 */
export const useDemoBank = (options: DemoBankOptions = {}): DemoBank => {
  const {
    embedOrigins = ['http://localhost:*'],
    demo: withDemo = true,
    partnerPage: withPartnerPage = false,
    clientName,
  } = options;
  const started: {
    browser?: Browser;
    app?: TestApp;
    partner?: Partner;
    demo?: RunningServer;
    partnerPage?: RunningServer;
    sdk?: CreditClient;
  } = {};

  beforeAll(async () => {
    assertBuilt();
    [started.browser, started.app] = await Promise.all([sharedBrowser(), openMigratedTestDb().then(startApi)]);
    const app = started.app;
    started.partner = await createPartner(app, embedOrigins, clientName);
    const partner = started.partner;
    started.sdk = app.sdk(partner.client);
    [started.demo, started.partnerPage] = await Promise.all([
      withDemo ? startDemo(app, partner) : undefined,
      withPartnerPage ? servePage('localhost', () => partnerPageHtml(app.url)) : undefined,
    ]);
  });

  afterAll(async () => {
    await started.browser?.close();
    await started.demo?.close();
    await started.partnerPage?.close();
    await started.app?.close();
  });

  const get = <K extends keyof typeof started>(key: K): NonNullable<(typeof started)[K]> => {
    const value = started[key];
    if (value === undefined) {
      const why =
        (key === 'demo' && !withDemo) || (key === 'partnerPage' && !withPartnerPage)
          ? `this suite asked for no ${key}`
          : 'the beforeAll hook has not run (or failed)';
      throw new Error(`useDemoBank: no ${key}: ${why}`);
    }
    return value as NonNullable<(typeof started)[K]>;
  };

  return {
    get browser() {
      return get('browser');
    },
    get app() {
      return get('app');
    },
    get partner() {
      return get('partner');
    },
    get demo() {
      return get('demo');
    },
    get partnerPage() {
      return get('partnerPage');
    },
    get sdk() {
      return get('sdk');
    },
  };
};
