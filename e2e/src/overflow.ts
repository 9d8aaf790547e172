import type { Frame, Page } from 'playwright-core';
import { findWidgetFrame } from './pages.ts';

/** How many CSS px the document is wider than its viewport: more than 0 means the reader scrolls sideways. */
const overflowOf = (target: Page | Frame) =>
  target.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

export interface SidewaysOverflow {
  host: number;
  frame: number;
}

/** Sideways overflow of the partner's page and of the widget's frame inside it, after layout has settled. */
export const sidewaysOverflow = async (page: Page): Promise<SidewaysOverflow> => {
  const widget = findWidgetFrame(page);
  if (!widget) throw new Error('no widget frame on the page');
  // Two animation frames in each document: the new width has been laid out in the frame's process too.
  const settle = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  await Promise.all([page.evaluate(settle), widget.evaluate(settle)]);
  const [host, frame] = await Promise.all([overflowOf(page), overflowOf(widget)]);
  return { host, frame };
};
