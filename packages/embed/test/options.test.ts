import { WIDGET_VIEWS } from '@credit/contract/widget-protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INITIAL_HEIGHT_PX } from '../src/frame.ts';
import { checkView } from '../src/options.ts';

describe('views', () => {
  it('accepts every dashboard view of the contract, the report and the what-if tool among them', () => {
    for (const view of WIDGET_VIEWS) expect(checkView(view)).toBe(view);
    expect(checkView('report')).toBe('report');
    expect(checkView('simulator')).toBe('simulator');
    expect(checkView(undefined)).toBeUndefined();
  });

  it('refuses a view the widget does not have, naming the ones it does', () => {
    expect(() => checkView('statements')).toThrow(
      'CreditWidget: unknown view "statements"; use one of score, factors, report, simulator, history, offers, alerts',
    );
  });

  it('reserves a height for every view before the frame reports its own', () => {
    expect(Object.keys(DEFAULT_INITIAL_HEIGHT_PX).sort()).toEqual([...WIDGET_VIEWS].sort());
    expect(DEFAULT_INITIAL_HEIGHT_PX.report).toBe(3000);
    expect(DEFAULT_INITIAL_HEIGHT_PX.simulator).toBe(900);
  });
});
