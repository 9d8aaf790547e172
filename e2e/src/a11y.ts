import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Frame, Page } from 'playwright-core';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the issue asks for WCAG 2.2 AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
/**
 * WCAG and axe's best practices: `landmark-unique` among them, which a frame's unlabelled `<header>`/`<main>`
 * break on any partner page with landmarks of its own.
 */
export const AXE_TAGS = [...WCAG_TAGS, 'best-practice'];

export interface A11yViolation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

type RunOptions = Parameters<AxeBuilder['options']>[0];
type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type PartialResults = unknown[];
interface AxeGlobal {
  axe: {
    configure(spec: object): void;
    finishRun(partials: PartialResults, options: RunOptions): Promise<AxeResults>;
  };
}

/** The axe-core that AxeBuilder injects into the audited frames (its own dependency). */
const AXE_SOURCE = (() => {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('@axe-core/playwright'))('axe-core').source as string;
})();

/**
 * AxeBuilder runs axe in every frame (axe.runPartial), then merges the frames' results (axe.finishRun) in a new page
 * of the audited context that it loads axe's 580 KB into and closes again: ~0.5 s of each of the journeys' ~70 audits
 * (measured in cross-origin-journey.test.ts). Merging reads only those results, not any page, so one page per browser,
 * in a context of its own (no page, request or event of the journey's context), serves every audit, one at a time.
 */
const finishers = new WeakMap<Browser, { page: Promise<Page>; queue: Promise<unknown> }>();

// The steps replaced below are AxeBuilder's private methods: if an update renames one, say so rather than go slow
// (finishRun) or skip frames again (inject).
interface AxeBuilderInternals {
  finishRun: (partials: PartialResults) => Promise<AxeResults>;
  inject: (frames: Frame[], shouldThrow?: boolean) => Promise<void>;
  script: () => string;
  axeConfigure: () => Promise<string>;
}
for (const method of ['finishRun', 'inject', 'script', 'axeConfigure'] as const) {
  if (typeof (AxeBuilder.prototype as unknown as Partial<AxeBuilderInternals>)[method] !== 'function') {
    throw new Error(`@axe-core/playwright no longer has ${method}: update e2e/src/a11y.ts`);
  }
}

/**
 * AxeBuilder gives loading axe's 580 KB into a frame one second (a race with a "Script Timeout"), and audits a frame
 * that missed it as if it had no frame: on a loaded machine the widget's cross-origin iframe went unaudited and its
 * violations unreported (seen in CI, 2026-11-28). Here the load takes as long as it takes; a frame that cannot take
 * it at all (detached mid-audit) still throws, as before.
 */
const injectWithoutDeadline = (builder: AxeBuilderInternals) => async (frames: Frame[], shouldThrow?: boolean) => {
  for (const frame of frames) {
    try {
      await frame.evaluate(builder.script());
      await frame.evaluate(await builder.axeConfigure());
    } catch (error) {
      if (shouldThrow) throw error;
    }
  }
};

/** The browser's merge page, opened once (synchronously claimed, so two audits starting together share it). */
const finisherFor = (browser: Browser) => {
  const existing = finishers.get(browser);
  if (existing) return existing;
  const finisher: { page: Promise<Page>; queue: Promise<unknown> } = {
    page: browser
      .newContext()
      .then((context) => context.newPage())
      .then(async (page) => {
        // A page that closed or crashed is forgotten: the next audit opens another.
        page.on('close', () => forget(browser, finisher));
        page.on('crash', () => forget(browser, finisher));
        await page.evaluate(AXE_SOURCE);
        // As AxeBuilder configures its page: the branding names the tool in each rule's help URL.
        await page.evaluate(() => (window as unknown as AxeGlobal).axe.configure({ branding: { application: 'playwright' } }));
        return page;
      }),
    queue: Promise.resolve(),
  };
  finishers.set(browser, finisher);
  return finisher;
};

const forget = (browser: Browser, finisher: { page: Promise<Page> }) => {
  if (finishers.get(browser) === finisher) finishers.delete(browser);
};

const finishRun = async (browser: Browser, partials: PartialResults, options: RunOptions): Promise<AxeResults> => {
  const finisher = finisherFor(browser);
  const run = finisher.queue.then(async () =>
    (await finisher.page).evaluate(({ partials, options }) => (window as unknown as AxeGlobal).axe.finishRun(partials, options), {
      partials,
      options,
    }),
  );
  finisher.queue = run.catch(() => {});
  // A merge that failed makes the next audit start a new page.
  run.catch(() => forget(browser, finisher));
  return run;
};

/** Runs axe over the page and every frame in it (the widget's cross-origin iframe included). */
export const findA11yViolations = async (page: Page, tags: string[] = AXE_TAGS): Promise<A11yViolation[]> => {
  const options: RunOptions = { runOnly: { type: 'tag', values: tags } };
  const builder = new AxeBuilder({ page }).options(options);
  const internals = builder as unknown as AxeBuilderInternals;
  internals.inject = injectWithoutDeadline(internals);
  const browser = page.context().browser();
  // AxeBuilder's own merge step (a private method) replaced by the shared page's; the frames' runs stay its own.
  if (browser) internals.finishRun = (partials) => finishRun(browser, partials, options);
  const results = await builder.analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => JSON.stringify(node.target)),
  }));
};

export const formatViolations = (screen: string, violations: A11yViolation[]): string =>
  [
    `axe found ${violations.length} violation(s) (WCAG A/AA, best practices) on "${screen}":`,
    ...violations.map((v) => `  - [${v.impact}] ${v.rule}: ${v.help}\n      at ${v.targets.slice(0, 5).join(', ')}`),
  ].join('\n');

/** Fails with every violation listed, so one run tells the widget's authors all there is to fix on a screen. */
export const assertNoA11yViolations = async (page: Page, screen: string): Promise<void> => {
  const violations = await findA11yViolations(page);
  if (violations.length) throw new Error(formatViolations(screen, violations));
};
