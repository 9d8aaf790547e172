import { WIDGET_LOCALES, type WidgetLocale } from '@credit/contract/widget-protocol';
import type { Frame, FrameLocator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { sidewaysOverflow } from '../src/overflow.ts';
import { findWidgetFrame, shownScore, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

/** The narrowest phone the widget is laid out for; the demo bank's page leaves the frame 292 px of it. */
const NARROW = { width: 320, height: 800 } as const;

/** What the lazy panels look like once they are there: their heading, and a rule only their own stylesheet has. */
const LAZY_PANELS = [
  { tab: 'Report', heading: 'Credit report', chunk: 'ReportPanel', styled: { selector: '.cw-figures', display: 'grid' } },
  { tab: 'What if', heading: 'What if…', chunk: 'SimulatorPanel', styled: { selector: '.cw-sim-form', display: 'flex' } },
] as const;

const frameOf = (page: Page): Frame => {
  const frame = findWidgetFrame(page);
  if (!frame) throw new Error('no widget frame on the page');
  return frame;
};

interface TabLayout {
  label: string;
  /** How far the label's text overflows its own box, and the tab's box (0 when it fits). */
  labelOverflow: number;
  tabOverflow: number;
  /** The label's box reaches past its tab's (the tab clips or overlaps it), in CSS px. */
  labelOutsideTab: number;
  /** The tab's box reaches past the visible part of the tab list (scrolled out of sight or cut off). */
  tabOutsideList: number;
  rect: { left: number; right: number; top: number; bottom: number };
}

/** Each tab's geometry, measured in the frame after layout settled. */
const tabLayouts = (frame: Frame): Promise<TabLayout[]> =>
  frame.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const list = document.querySelector<HTMLElement>('[role="tablist"]');
    if (!list) throw new Error('no tab list in the frame');
    const listRect = list.getBoundingClientRect();
    const beyond = (inner: DOMRect, outer: DOMRect) =>
      Math.max(0, outer.left - inner.left, inner.right - outer.right, outer.top - inner.top, inner.bottom - outer.bottom);
    return Array.from(list.querySelectorAll<HTMLElement>('[role="tab"]'), (tab) => {
      const label = tab.querySelector<HTMLElement>('span') ?? tab;
      const tabRect = tab.getBoundingClientRect();
      const { left, right, top, bottom } = tabRect;
      return {
        label: label.textContent ?? '',
        labelOverflow: label.scrollWidth - label.clientWidth,
        tabOverflow: tab.scrollWidth - tab.clientWidth,
        labelOutsideTab: beyond(label.getBoundingClientRect(), tabRect),
        tabOutsideList: beyond(tabRect, listRect),
        rect: { left, right, top, bottom },
      };
    });
  });

/** Tabs whose boxes overlap by more than a rounding error. */
const overlapping = (tabs: TabLayout[]): string[] =>
  tabs.flatMap((a, i) =>
    tabs.slice(i + 1).flatMap((b) => {
      const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      return width > 0.5 && height > 0.5 ? [`"${a.label}" and "${b.label}" overlap by ${width.toFixed(1)} px`] : [];
    }),
  );

const clipped = (tabs: TabLayout[]): string[] =>
  tabs.flatMap((tab) => {
    const problems = [
      tab.labelOverflow > 0 ? `its text is ${tab.labelOverflow} px wider than its box` : '',
      tab.tabOverflow > 0 ? `its content is ${tab.tabOverflow} px wider than the tab` : '',
      tab.labelOutsideTab > 0.5 ? `it reaches ${tab.labelOutsideTab.toFixed(1)} px past the tab` : '',
      tab.tabOutsideList > 0.5 ? `the tab reaches ${tab.tabOutsideList.toFixed(1)} px past the tab list` : '',
    ].filter(Boolean);
    return problems.length ? [`"${tab.label}": ${problems.join(', ')}`] : [];
  });

describe('the dashboard in a 320 px phone', () => {
  const bank = useDemoBank();

  const activeCustomerWithAlert = async (prefix: string) => {
    const externalUserId = newExternalUserId(prefix);
    const userId = await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
    // A drop of more than 10 points: an unread alert, so the Alerts tab carries its badge too.
    await bank.sdk.call('sandboxRefreshScore', { params: { userId }, body: { score: JANE.score - 40 } });
    return externalUserId;
  };

  const openDashboard = async (page: Page, externalUserId: string, locale: WidgetLocale = 'en'): Promise<FrameLocator> => {
    await page.setViewportSize(NARROW);
    await page.goto(`${bank.demo.url}/?user=${externalUserId}&locale=${locale}`);
    const frame = widgetFrame(page);
    await shownScore(frame, JANE.score - 40).waitFor();
    return frame;
  };

  it('shows every tab label whole, in every language, without axe violations', { timeout: 90_000 }, async () => {
    const externalUserId = await activeCustomerWithAlert('narrow-tabs');
    await runJourney(bank.browser, 'mobile', 'narrow-tabs', async ({ page, audit }) => {
      const problems: string[] = [];
      for (const locale of WIDGET_LOCALES) {
        const frame = await openDashboard(page, externalUserId, locale);
        await frame.locator('.cw-dashboard__unread').waitFor();
        const tabs = await tabLayouts(frameOf(page));
        expect(tabs, `${locale}: one tab per view`).toHaveLength(7);
        problems.push(...[...clipped(tabs), ...overlapping(tabs)].map((problem) => `${locale}: ${problem}`));
        const { frame: overflow } = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${locale}: the frame scrolls ${overflow} px sideways`);
        await audit.check(`narrow-tabs-${locale}`, { screenshot: locale === 'es' });
      }
      expect.soft(problems, problems.join('\n')).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('"Try again" after a failed download brings a lazy tab back with its stylesheet', { timeout: 90_000 }, async () => {
    const externalUserId = await activeCustomerWithAlert('lazy-retry');
    await runJourney(bank.browser, 'mobile', 'lazy-retry', async ({ page, context }) => {
      const offline = { on: true };
      const blocked: string[] = [];
      // The panels' scripts and stylesheets fail while "offline" is on, as on a connection that dropped.
      await context.route(/\/widget\/assets\/(?:ReportPanel|SimulatorPanel)-[\w-]+\.(?:js|css)$/, (route: Route) => {
        if (!offline.on) return route.continue();
        blocked.push(new URL(route.request().url()).pathname);
        return route.abort('internetdisconnected');
      });
      const frame = await openDashboard(page, externalUserId);

      for (const panel of LAZY_PANELS) {
        offline.on = true;
        await frame.getByRole('tab', { name: panel.tab, exact: true }).click();
        await frame.getByRole('heading', { name: 'You seem to be offline' }).waitFor();
        expect(blocked.filter((url) => url.includes(`/${panel.chunk}-`)).map((url) => url.split('.').pop())).toEqual(
          expect.arrayContaining(['js', 'css']),
        );

        offline.on = false;
        await frame.getByRole('button', { name: 'Try again' }).click();
        await frame.getByRole('heading', { name: panel.heading, exact: true }).waitFor();
        const styled = frame.locator(panel.styled.selector).first();
        await styled.waitFor();
        expect(await styled.evaluate((element) => getComputedStyle(element).display), `${panel.tab}: its own stylesheet`).toBe(
          panel.styled.display,
        );
        const { frame: overflow } = await sidewaysOverflow(page);
        expect(overflow, `${panel.tab}: the frame scrolls sideways`).toBe(0);
        const widths = await frameOf(page).evaluate(() => {
          const root = document.scrollingElement ?? document.documentElement;
          return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
        });
        expect(widths.scrollWidth, `${panel.tab}: as wide as the frame`).toBeLessThanOrEqual(widths.clientWidth);
      }
    });
  });
});
