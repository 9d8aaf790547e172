import type { BrowserContext, Frame, Page } from 'playwright-core';
import { findWidgetFrame } from './pages.ts';

/** Google's "good" threshold for Cumulative Layout Shift, and the goal for the demo page. */
export const CLS_BUDGET = 0.1;

export interface LayoutShift {
  value: number;
  /** ms since the document's time origin. */
  startTime: number;
  /** What moved, e.g. `DIV.columns` or `IFRAME`: the first thing to look at when the number is too high. */
  sources: string[];
}

export interface ClsReport {
  /** The page's own layout shifts (a partner's content moving as the frame grows): what the budget is about. */
  host: number;
  /** Layout shifts inside the widget's frame, in the frame's own viewport (skeleton → content). */
  frame: number;
  /** Chromium's CLS definition (the largest burst: gaps under 1 s, at most 5 s) of the host page. */
  hostSessionWindow: number;
  /**
   * `host + frame`: what the budget applies to. Chromium's page CLS adds a frame's shifts weighted by the
   * frame's share of the viewport (at most 1), so this bounds it from above whatever the frame's size.
   */
  total: number;
  hostShifts: LayoutShift[];
  frameShifts: LayoutShift[];
}

declare global {
  interface Window {
    __layoutShifts?: LayoutShift[];
  }
}

/**
 * Records every layout shift of every document in the context, frames included, into `window.__layoutShifts`,
 * from the start of the document (`buffered`). Shifts within 500 ms of input (`hadRecentInput`) do not count
 * towards CLS, so they are left out. A string, not a function: tsx's `__name` helper must not leak into it.
 */
const RECORD_LAYOUT_SHIFTS = `(() => {
  if (typeof PerformanceObserver === 'undefined' || window.__layoutShifts) return;
  const shifts = [];
  window.__layoutShifts = shifts;
  const describe = (node) => {
    if (!node || !node.nodeName) return '?';
    const id = node.id ? '#' + node.id : '';
    const cls = typeof node.className === 'string' && node.className ? '.' + node.className.trim().split(/\\s+/).join('.') : '';
    return node.nodeName + id + cls;
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          startTime: entry.startTime,
          sources: (entry.sources || []).map((source) => describe(source.node)),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
})();`;

/** Call before the page loads (on the context, so the widget's frame records its own shifts too). */
export const recordLayoutShifts = async (target: BrowserContext | Page): Promise<void> => {
  await target.addInitScript(RECORD_LAYOUT_SHIFTS);
};

const sum = (shifts: LayoutShift[]) => shifts.reduce((total, shift) => total + shift.value, 0);

/** The largest session window: shifts less than 1 s apart, a window at most 5 s long (web-vitals' definition). */
export const sessionWindowCls = (shifts: LayoutShift[]): number => {
  let largest = 0;
  let current = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const shift of [...shifts].sort((a, b) => a.startTime - b.startTime)) {
    if (shift.startTime - last < 1_000 && shift.startTime - first < 5_000) current += shift.value;
    else {
      current = shift.value;
      first = shift.startTime;
    }
    last = shift.startTime;
    largest = Math.max(largest, current);
  }
  return largest;
};

const shiftsOf = async (frame: Page | Frame): Promise<LayoutShift[]> =>
  frame.evaluate(() => window.__layoutShifts ?? []).catch(() => []);

/**
 * Until the widget's frame has kept one height for a few checks (at most 2 s), then two animation frames: the
 * frame reports its new height by message once its content changed, so the page's shift from the content that
 * just appeared comes a little after it is visible, and must count.
 */
const settle = (page: Page) =>
  page.evaluate(async () => {
    const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const frame = document.querySelector('iframe[src*="/widget"]');
    let last = -1;
    let steady = 0;
    for (let waited = 0; frame && steady < 3 && waited < 2_000; waited += 100) {
      const height = frame.getBoundingClientRect().height;
      steady = height === last ? steady + 1 : 0;
      last = height;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await nextFrame();
    await nextFrame();
  });

/**
 * The layout shifts so far on `page` (recorded since load by `recordLayoutShifts`) and in the widget's frame.
 * Call it the moment the journey's goal is visible (the score), as the issue measures "from load until the
 * score is visible".
 */
export const readCls = async (page: Page): Promise<ClsReport> => {
  await settle(page);
  const hostShifts = await shiftsOf(page);
  const widget = findWidgetFrame(page);
  const frameShifts = widget ? await shiftsOf(widget) : [];
  const host = sum(hostShifts);
  const frame = sum(frameShifts);
  return {
    host,
    frame,
    total: host + frame,
    hostSessionWindow: sessionWindowCls(hostShifts),
    hostShifts,
    frameShifts,
  };
};

export const formatCls = (report: ClsReport): string => {
  const list = (shifts: LayoutShift[]) =>
    shifts.map((s) => `    ${s.value.toFixed(4)} at ${s.startTime.toFixed(0)} ms: ${s.sources.join(', ') || '?'}`).join('\n');
  return [
    `CLS ${report.total.toFixed(3)}: host page ${report.host.toFixed(3)} (largest window ${report.hostSessionWindow.toFixed(3)}), ` +
      `in the frame ${report.frame.toFixed(3)}`,
    ...(report.hostShifts.length ? ['  host shifts:', list(report.hostShifts)] : []),
    ...(report.frameShifts.length ? ['  frame shifts:', list(report.frameShifts)] : []),
  ].join('\n');
};

/**
 * CLS of one visit: records layout shifts from the first byte, opens `url`, waits for `visible` (the score on
 * screen) and reads the shifts at that moment. The page should be fresh (a new context: nothing cached).
 */
export const measureCls = async (page: Page, url: string, visible: () => Promise<unknown>): Promise<ClsReport> => {
  await recordLayoutShifts(page.context());
  await page.goto(url);
  await visible();
  return readCls(page);
};
