import { describe, expect, it } from 'vitest';
import { assertBuilt } from '../src/built-files.ts';
import { EMBED_BUDGET_BYTES, formatSizes, measureSizes, WIDGET_FIRST_LOAD_BUDGET_BYTES } from '../src/sizes.ts';

describe('size budget', () => {
  it('keeps embed.js within 5 KB and the widget first-load JS within 150 KB, gzipped', () => {
    assertBuilt();
    const report = measureSizes();
    console.log(formatSizes(report));
    expect(report.embedGzip, 'embed.js gzip bytes').toBeLessThanOrEqual(EMBED_BUDGET_BYTES);
    expect(report.firstLoadGzip, 'widget first-load JS gzip bytes').toBeLessThanOrEqual(WIDGET_FIRST_LOAD_BUDGET_BYTES);
  });
});
