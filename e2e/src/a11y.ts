import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

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

/** Runs axe over the page and every frame in it (the widget's cross-origin iframe included). */
export const findA11yViolations = async (page: Page, tags: string[] = AXE_TAGS): Promise<A11yViolation[]> => {
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
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
