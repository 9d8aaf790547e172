// @vitest-environment happy-dom
import type { WidgetDisclosure } from '@credit/contract/widget-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createFrame, flush } from './frame-harness.ts';

let frame: ReturnType<typeof createFrame>;
afterEach(() => frame?.services.bridge.close());

/** The score event data the host page receives when the screens report Jane's 712 (good) under `disclosure`. */
const hostHears = async (disclosure: WidgetDisclosure | null) => {
  frame = createFrame(disclosure ? { disclosure } : {});
  const { host, api, services } = frame;
  if (disclosure) {
    api.issueToken('ut_sbx_jane');
    await services.session.start('ut_sbx_jane');
  }
  const shown = { userId: 'usr_1', disclosure: 'exact' as const, score: 712, band: 'good' as const };
  services.emitEvent({ name: 'score_loaded', data: shown });
  services.emitEvent({ name: 'score_refreshed', data: shown });
  await flush();
  return host.sent('event').map(({ message }) => (message.type === 'event' ? message.payload : null));
};

describe('score events carry only what the client’s disclosure setting allows', () => {
  it('none: that a score was shown, nothing about it', async () => {
    expect(await hostHears('none')).toEqual([
      { name: 'score_loaded', data: { userId: 'usr_1', disclosure: 'none' } },
      { name: 'score_refreshed', data: { userId: 'usr_1', disclosure: 'none' } },
    ]);
  });

  it('band: the rating band, never the number', async () => {
    expect(await hostHears('band')).toEqual([
      { name: 'score_loaded', data: { userId: 'usr_1', disclosure: 'band', band: 'good' } },
      { name: 'score_refreshed', data: { userId: 'usr_1', disclosure: 'band', band: 'good' } },
    ]);
  });

  it('exact: the band and the number', async () => {
    expect((await hostHears('exact'))[0]).toEqual({
      name: 'score_loaded',
      data: { userId: 'usr_1', disclosure: 'exact', band: 'good', score: 712 },
    });
  });

  it('before the server said anything (no session), nothing about the score, whatever the screen put in the event', async () => {
    expect((await hostHears(null))[0]).toEqual({ name: 'score_loaded', data: { userId: 'usr_1', disclosure: 'none' } });
  });
});
