// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createFrame, FRAME_ID, flush, PARENT_ORIGIN } from './frame-harness.ts';

let frame: ReturnType<typeof createFrame>;
afterEach(() => frame?.services.bridge.close());

describe('the frame listens only to the page that embeds it', () => {
  it('says it is listening, pinned to the parent origin, and takes init only from that page, for this frame', async () => {
    frame = createFrame();
    const { host, services } = frame;
    let connection: unknown = null;
    void services.bridge.connect().then((value) => {
      connection = value;
    });
    expect(host.posted).toEqual([
      {
        message: { source: 'credit-widget', version: 1, frameId: FRAME_ID, type: 'frame_loaded', payload: {} },
        targetOrigin: PARENT_ORIGIN,
      },
    ]);

    const init = { userToken: 'ut_sbx_forged', view: 'offers' as const };
    host.send('init', init, { origin: 'https://evil.example' });
    host.send('init', init, { source: null });
    host.send('init', init, { source: window });
    host.send('init', init, { frameId: 'cw2other' });
    host.send('init', init, { version: 2 });
    await flush();
    expect(connection).toBeNull();

    host.send('init', {
      userToken: 'ut_sbx_real',
      view: 'alerts',
      locale: 'es',
      // A page is not trusted to send the declared types: unknown fields go, numbers are clamped.
      theme: { brandColor: '#b3261e', radius: 99, extra: 'x' } as never,
    });
    await flush();
    expect(connection).toEqual({
      userToken: 'ut_sbx_real',
      settings: { view: 'alerts', locale: 'es', theme: { brandColor: '#b3261e', radius: 32 } },
    });
    // A second init (a replayed message) changes nothing.
    host.send('init', { userToken: 'ut_sbx_second' });
    expect(await services.bridge.connect()).toEqual(connection);
  });

  it('takes a fresh token, a view and a refresh only from the embedding page', async () => {
    frame = createFrame();
    const { host, services } = frame;
    void services.bridge.connect();
    const views: string[] = [];
    let refreshes = 0;
    services.bridge.onView((view) => views.push(view));
    services.bridge.onRefresh(() => {
      refreshes += 1;
    });

    let fresh: string | null | undefined;
    void services.bridge.requestFreshToken().then((token) => {
      fresh = token;
    });
    expect(host.sent('token_request')).toHaveLength(1);
    host.send('token', { userToken: 'ut_sbx_forged' }, { origin: 'https://evil.example' });
    host.send('token', { userToken: 'ut_sbx_forged' }, { frameId: 'cw2other' });
    host.send('set_view', { view: 'offers' }, { source: null });
    host.send('refresh', {}, { origin: 'https://evil.example' });
    await flush();
    expect(fresh).toBeUndefined();
    expect(views).toEqual([]);
    expect(refreshes).toBe(0);

    host.send('token', { userToken: 'ut_sbx_fresh' });
    host.send('set_view', { view: 'offers' });
    host.send('set_view', { view: 'nonsense' as never });
    host.send('refresh', {});
    await flush();
    expect(fresh).toBe('ut_sbx_fresh');
    expect(views).toEqual(['offers']);
    expect(refreshes).toBe(1);
  });

  it('reports the first screen as ready and later ones as view_changed, following the host and the tabs', async () => {
    frame = createFrame();
    const { host, services } = frame;
    void services.bridge.connect();
    services.screens.setInitialView('history');
    services.screens.report('verify');
    services.screens.report(services.screens.dashboardView());
    host.send('set_view', { view: 'alerts' });
    services.screens.setView('alerts');
    await flush();
    expect(host.sent('event').map(({ message }) => message.payload)).toEqual([
      { name: 'ready', data: { view: 'verify' } },
      { name: 'view_changed', data: { view: 'history' } },
      { name: 'view_changed', data: { view: 'alerts' } },
    ]);
    expect(services.screens.dashboardView()).toBe('alerts');
  });
});
