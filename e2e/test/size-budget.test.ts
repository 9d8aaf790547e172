import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, CONSOLE_DIST, CONSOLE_INDEX } from '../src/built-files.ts';
import {
  CONSOLE_CHART_BUDGET,
  CONSOLE_FIRST_LOAD_BUDGET,
  EMBED_BUDGET_BYTES,
  formatConsoleSizes,
  formatSizes,
  measureConsoleSizes,
  measureSizes,
  totalOf,
  WIDGET_FIRST_LOAD_BUDGET_BYTES,
} from '../src/sizes.ts';

/** A string only the chart library's code holds: the class of the box it draws in. */
const CHART_LIBRARY = 'recharts-wrapper';

describe('size budget', () => {
  it('keeps embed.js within 5 KB and the widget first-load JS within 150 KB, gzipped', () => {
    assertBuilt();
    const report = measureSizes();
    console.log(formatSizes(report));
    expect(report.embedGzip, 'embed.js gzip bytes').toBeLessThanOrEqual(EMBED_BUDGET_BYTES);
    expect(report.firstLoadGzip, 'widget first-load JS gzip bytes').toBeLessThanOrEqual(WIDGET_FIRST_LOAD_BUDGET_BYTES);
  });

  it('keeps the console’s first load and the Program chart within their budgets, the chart library out of the first', () => {
    expect(existsSync(CONSOLE_INDEX), 'run `pnpm build` first').toBe(true);
    const report = measureConsoleSizes();
    console.log(formatConsoleSizes(report));
    const first = totalOf(report.firstLoad);
    expect(first.raw, 'console first-load JS bytes').toBeLessThanOrEqual(CONSOLE_FIRST_LOAD_BUDGET.raw);
    expect(first.brotli, 'console first-load JS brotli bytes').toBeLessThanOrEqual(CONSOLE_FIRST_LOAD_BUDGET.brotli);

    const holdsChart = (file: string) => readFileSync(path.join(CONSOLE_DIST, file), 'utf8').includes(CHART_LIBRARY);
    expect(
      report.firstLoad.filter((c) => holdsChart(c.file)).map((c) => c.file),
      'chart library in the first load',
    ).toEqual([]);
    const charts = report.lazy.filter((c) => holdsChart(c.file));
    expect(
      charts.map((c) => path.basename(c.file)),
      'one lazy chunk with the chart',
    ).toEqual([expect.stringMatching(/^ProgramChart-/)]);
    for (const chart of charts) {
      expect(chart.raw, `${chart.file} bytes`).toBeLessThanOrEqual(CONSOLE_CHART_BUDGET.raw);
      expect(chart.brotli, `${chart.file} brotli bytes`).toBeLessThanOrEqual(CONSOLE_CHART_BUDGET.brotli);
    }
  });
});
