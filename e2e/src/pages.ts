import type { Frame, FrameLocator, Page, Response } from 'playwright-core';
import { JANE } from './users.ts';

/** What a host page records of the widget's public events (the demo's `window.demoEvents`, our pages' `hostEvents`). */
export interface HostEvent {
  name: string;
  data?: Record<string, unknown>;
}

interface CreditWidgetOptions {
  container: HTMLElement | string;
  userToken: string;
  view?: string;
  locale?: string;
  readyTimeoutMs?: number;
  onEvent?: (event: HostEvent) => void;
  onTokenExpired?: () => Promise<string>;
}

declare global {
  interface Window {
    CreditWidget?: {
      create(options: CreditWidgetOptions): { destroy(): void; readonly iframe: HTMLIFrameElement };
      scan(root?: ParentNode): unknown[];
    };
    demoEvents?: HostEvent[];
    hostEvents?: HostEvent[];
    __marker?: string;
    /** What the widget sent through the React Native bridge the mobile journey installs. */
    __bridged?: HostEvent[];
    ReactNativeWebView?: { postMessage(message: string): void };
  }
}

/** The widget inside the host page: the loader's iframe, served by the API under /widget. */
export const widgetFrame = (page: Page): FrameLocator => page.frameLocator('iframe[src*="/widget"]');

/** The same frame as a `Frame`, to run code in it; undefined until the loader created it. */
export const findWidgetFrame = (page: Page): Frame | undefined =>
  page.frames().find((frame) => frame !== page.mainFrame() && /^https?:\/\/[^/]+\/widget(?:[/?#]|$)/.test(frame.url()));

/** The current score as the Score tab shows it: the number on its own, not inside a sentence. */
export const shownScore = (frame: FrameLocator | Page, score: number) =>
  frame.getByRole('tabpanel').getByText(String(score), { exact: true }).first();

/**
 * Selects a dashboard tab and waits for its panel's heading. The dashboard may still re-render as the score or the
 * monitoring status lands (CI once lost a click that way), and a lazy tab's code may still be downloading: the tab
 * is clicked again until the heading shows, within the same overall wait.
 */
export const openDashboardTab = async (frame: FrameLocator, name: string | RegExp, heading: string): Promise<void> => {
  const shown = frame.getByRole('heading', { name: heading, exact: true });
  for (let attempt = 1; ; attempt++) {
    await frame.getByRole('tab', typeof name === 'string' ? { name, exact: true } : { name }).click();
    try {
      await shown.waitFor({ timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
};

/** Names of the events the host page received, in order. */
export const hostEventNames = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...(window.demoEvents ?? []), ...(window.hostEvents ?? [])].map((event) => event.name));

export const hostEvents = (page: Page): Promise<HostEvent[]> =>
  page.evaluate(() => [...(window.demoEvents ?? []), ...(window.hostEvents ?? [])]);

/** Fills the widget's enrolment form with Jane's identity and continues, in the frame or in a top-level (webview) page. */
export const submitJaneEnrolment = async (widget: Page | FrameLocator) => {
  await widget.getByLabel('Last 4 digits of your Social Security number').fill(JANE.ssn);
  await widget.getByLabel('Date of birth').fill(JANE.dateOfBirth);
  await widget.getByLabel('Street address').fill(JANE.address.street);
  await widget.getByLabel('City', { exact: true }).fill(JANE.address.city);
  await widget.getByLabel('State', { exact: true }).selectOption(JANE.address.state);
  await widget.getByLabel('ZIP code').fill(JANE.address.zipCode);
  await agreeToConsent(widget);
  await widget.getByRole('button', { name: 'Continue' }).click();
};

/** The consent checkbox of the enrolment form (or of the re-consent screen), by its label. */
export const consentCheckbox = (widget: Page | FrameLocator) =>
  widget.getByRole('checkbox', { name: /^I agree that Credit API/ });

/** Ticks the consent instruction's checkbox: the enrolment does not go on without it. */
export const agreeToConsent = (widget: Page | FrameLocator) => consentCheckbox(widget).check();

/**
 * A partner page of our own: it loads the loader from the API and nothing else; the test calls
 * `CreditWidget.create` itself, through `createWidget`.
 */
export const partnerPageHtml = (apiUrl: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Partner page</title></head>
<body>
<main>
<h1>Partner page</h1>
<div id="credit-widget"></div>
</main>
<script src="${apiUrl}/embed.js"></script>
</body>
</html>`;

export interface CreateOptions {
  userToken: string;
  readyTimeoutMs?: number;
  view?: string;
  /** How many times to call `create` on the same container (React StrictMode mounts twice). */
  times?: number;
  /** Destroy the first handle before creating again, as StrictMode's effect cleanup does. */
  destroyBetween?: boolean;
  /**
   * A function the test exposed on the page (`page.exposeFunction`) that answers `onTokenExpired`, as a
   * partner's call to its own server would.
   */
  tokenFunction?: string;
}

/** Calls `CreditWidget.create` on the page's container; the host's events land in `window.hostEvents`. */
export const createWidget = (page: Page, { times = 1, destroyBetween = false, tokenFunction, ...options }: CreateOptions) =>
  page.evaluate(
    ({ opts, times, destroyBetween, tokenFunction }) => {
      window.hostEvents ??= [];
      const events = window.hostEvents;
      const loader = window.CreditWidget;
      if (!loader) throw new Error('embed.js did not define window.CreditWidget');
      const exposed = tokenFunction
        ? (window as unknown as Record<string, (() => Promise<string>) | undefined>)[tokenFunction]
        : undefined;
      if (tokenFunction && !exposed) throw new Error(`the test exposed no ${tokenFunction} on the page`);
      for (let i = 0; i < times; i += 1) {
        const handle = loader.create({
          container: '#credit-widget',
          ...opts,
          onEvent: (event) => events.push(event),
          ...(exposed ? { onTokenExpired: () => exposed() } : {}),
        });
        if (destroyBetween && i < times - 1) handle.destroy();
      }
    },
    { opts: options, times, destroyBetween, tokenFunction },
  );

/** Every API call the page and its frames made, for the few facts a user cannot see (a second session exchange). */
export class NetworkLog {
  readonly responses: Response[] = [];

  constructor(page: Page) {
    page.on('response', (response) => this.responses.push(response));
  }

  /** Responses to `method` on a path matching `path`. */
  matching(method: string, path: RegExp): Response[] {
    return this.responses.filter((r) => r.request().method() === method && path.test(new URL(r.url()).pathname));
  }
}
