// @vitest-environment happy-dom
// @vitest-environment-options {"url":"http://localhost:3001/","settings":{"enableJavaScriptEvaluation":true,"suppressInsecureJavaScriptEnvironmentWarning":true,"enableIframePageLoading":true}}
import type { WidgetEvent } from '@credit/contract/widget-protocol';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreditWidget, type CreditWidgetProps } from '../src/index.ts';
import { startEmbedServer } from './embed-server.ts';
import { renderStrict, settle } from './render.ts';

let server: Awaited<ReturnType<typeof startEmbedServer>>;
beforeAll(async () => {
  server = await startEmbedServer();
});
afterAll(() => server.close());

const framesIn = (element: Element) => Array.from(element.querySelectorAll('iframe'));
const loaderScripts = () => Array.from(document.querySelectorAll('script')).filter((script) => script.src === server.embedUrl);

const tokenSource = () => {
  let minted = 0;
  return {
    fetchUserToken: async () => `ut_sbx_test_${++minted}`,
    minted: () => minted,
  };
};

const widget = (props: Partial<CreditWidgetProps> & Pick<CreditWidgetProps, 'fetchUserToken'>) =>
  createElement(CreditWidget, { embedUrl: server.embedUrl, ...props });

describe('<CreditWidget> in the browser', () => {
  it('StrictMode leaves one frame, loads the loader once and mints one token, with the height reserved', async () => {
    const tokens = tokenSource();
    const first = await renderStrict(widget({ fetchUserToken: tokens.fetchUserToken, view: 'history' }));
    await settle(() => framesIn(first.host).length > 0);
    // A second widget on the page reuses the loader that is already there.
    const second = await renderStrict(widget({ fetchUserToken: tokens.fetchUserToken }));
    await settle(() => framesIn(second.host).length > 0);

    expect(framesIn(first.host)).toHaveLength(1);
    expect(framesIn(second.host)).toHaveLength(1);
    expect(loaderScripts()).toHaveLength(1);
    expect(server.loaderRequests()).toBe(1);
    expect(tokens.minted()).toBe(2);
    const frame = framesIn(first.host)[0] as HTMLIFrameElement;
    expect(frame.src).toMatch(
      new RegExp(`^${server.embedUrl.replace('/embed.js', '')}/widget\\?parent=http%3A%2F%2Flocalhost%3A3001&frameId=`),
    );
    const container = first.host.firstElementChild as HTMLElement;
    // The loader's own reserve for the History tab, held by the container until the frame reports its first screen.
    expect(container.style.minHeight).toBe('680px');
    expect(frame.style.height).toBe('680px');
    // The token travels by postMessage once the frame asks, never in the frame's address.
    expect(frame.src).not.toContain('ut_');

    await first.unmount();
    await second.unmount();
    expect(framesIn(document.body)).toHaveLength(0);
  });

  it('switches the tab without a new frame, restarts for a new locale, and ignores new callback identities', async () => {
    const tokens = tokenSource();
    const onEvent = vi.fn<(event: WidgetEvent) => void>();
    const theme = { brandColor: '#b3261e', radius: 12 };
    const page = await renderStrict(widget({ fetchUserToken: tokens.fetchUserToken, onEvent, theme }));
    await settle(() => framesIn(page.host).length > 0);
    const frame = framesIn(page.host)[0] as HTMLIFrameElement;
    const container = page.host.firstElementChild as HTMLElement;
    const handle = window.CreditWidget?.get(container);
    if (!handle) throw new Error('the loader has no widget in the container');
    const setView = vi.spyOn(handle, 'setView');

    await page.rerender(
      widget({ fetchUserToken: tokens.fetchUserToken, onEvent: (event) => onEvent(event), theme: { ...theme }, view: 'offers' }),
    );
    expect(setView).toHaveBeenCalledWith('offers');
    expect(framesIn(page.host)).toEqual([frame]);

    await page.rerender(widget({ fetchUserToken: tokens.fetchUserToken, onEvent, theme, view: 'offers', locale: 'es' }));
    await settle(() => framesIn(page.host)[0] !== frame);
    const restarted = framesIn(page.host);
    expect(restarted).toHaveLength(1);
    expect(restarted[0]?.title).toBe('Puntaje de crédito');
    expect(frame.isConnected).toBe(false);
    // The restarted frame starts with the token the page already had; it asks for a new one only if that expired.
    expect(tokens.minted()).toBe(1);
    await page.unmount();
  });

  it('opens on the report and switches to the what-if tab without a new frame', async () => {
    const tokens = tokenSource();
    const page = await renderStrict(widget({ fetchUserToken: tokens.fetchUserToken, view: 'report' }));
    await settle(() => framesIn(page.host).length > 0);
    const frame = framesIn(page.host)[0] as HTMLIFrameElement;
    const container = page.host.firstElementChild as HTMLElement;
    expect(container.style.minHeight).toBe('3000px');
    const handle = window.CreditWidget?.get(container);
    if (!handle) throw new Error('the loader has no widget in the container');
    const setView = vi.spyOn(handle, 'setView');
    await page.rerender(widget({ fetchUserToken: tokens.fetchUserToken, view: 'simulator' }));
    expect(setView).toHaveBeenCalledWith('simulator');
    expect(framesIn(page.host)).toEqual([frame]);
    await page.unmount();
  });

  it('reports a token that cannot be had as an error event and gives the space back', async () => {
    const onEvent = vi.fn<(event: WidgetEvent) => void>();
    const page = await renderStrict(
      widget({
        fetchUserToken: async () => {
          throw new Error('the bank is offline');
        },
        onEvent,
      }),
    );
    await settle(() => onEvent.mock.calls.length > 0);
    expect(onEvent.mock.calls).toEqual([[{ name: 'error', data: { code: 'INVALID_TOKEN', message: 'the bank is offline' } }]]);
    expect(framesIn(page.host)).toHaveLength(0);
    expect((page.host.firstElementChild as HTMLElement).style.minHeight).toBe('');
    await page.unmount();
  });

  it('refuses a value that is not a user token before it reaches the frame', async () => {
    const onEvent = vi.fn<(event: WidgetEvent) => void>();
    const page = await renderStrict(widget({ fetchUserToken: () => 'sk_live_secret', onEvent }));
    await settle(() => onEvent.mock.calls.length > 0);
    expect(onEvent).toHaveBeenCalledWith({
      name: 'error',
      data: { code: 'INVALID_TOKEN', message: expect.stringContaining('must return a user token starting with "ut_"') },
    });
    expect(framesIn(page.host)).toHaveLength(0);
    await page.unmount();
  });
});
