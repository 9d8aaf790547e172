// @vitest-environment happy-dom
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OffersPanel } from '../src/offers/OffersPanel.tsx';
import { offer } from './offers-fixture.ts';
import { click, fakeApi, renderPanel, type SentRequest, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
  vi.unstubAllGlobals();
});

const LANDING = 'https://api.example.test/sandbox/apply/off_refi000000001?clickId=clk_0123456789abcdef';

/** The window `window.open` hands back, as far as the panel touches it. */
const fakePopup = () => ({ closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn() });

const showAndApply = async (popup: ReturnType<typeof fakePopup> | null, applicationUrl = LANDING) => {
  const open = vi.fn(() => popup);
  vi.stubGlobal('open', open);
  const clicks: SentRequest[] = [];
  const { api } = fakeApi({
    'GET /v1/users/usr_1/offers?limit=50': () => ({ data: [offer()] }),
    'POST /v1/users/usr_1/offers/off_refi000000001/click': (request) => {
      clicks.push(request);
      return {
        data: {
          clickId: 'clk_0123456789abcdef',
          offerId: 'off_refi000000001',
          userId: 'usr_1',
          recordedAt: '2026-11-30T12:00:00Z',
          offerVersion: 1,
          applicationUrl,
        },
      };
    },
  });
  page = await renderPanel(createElement(OffersPanel, { userId: 'usr_1' }), { api });
  const host = page.host;
  await settle(() => host.querySelector('.cw-offer__apply') !== null);
  await click(host.querySelector('.cw-offer__apply') as HTMLElement);
  return { host, open, clicks, events: page.events };
};

describe('Apply', () => {
  it("records the click, then sends the window opened in the gesture to the click's address, and tells the host", async () => {
    const popup = fakePopup();
    const { open, clicks, events } = await showAndApply(popup);
    // Opened blank at once (inside the click), cut off from the widget.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(popup.opener).toBeNull();
    await settle(() => popup.location.href !== '');
    expect(popup.location.href).toBe(LANDING);
    expect(clicks.map((request) => request.body)).toEqual([
      { source: 'widget', timestamp: expect.any(String), metadata: { page: 'offers', position: 0 } },
    ]);
    expect(events).toContainEqual({
      name: 'offer_clicked',
      data: { userId: 'usr_1', offerId: 'off_refi000000001', clickId: 'clk_0123456789abcdef', url: LANDING },
    });
  });

  it('gives a link to follow where no window opens (a webview)', async () => {
    const { host, events } = await showAndApply(null);
    await settle(() => host.querySelector('.cw-offer__continue') !== null);
    expect(host.querySelector('.cw-offer__continue')?.getAttribute('href')).toBe(LANDING);
    expect(events).toHaveLength(1);
  });

  it('opens nothing the click answers that is not a web page', async () => {
    const popup = fakePopup();
    const { host, events } = await showAndApply(popup, 'javascript:alert(1)');
    await settle(() => host.querySelector('[role="alert"]') !== null);
    expect(popup.close).toHaveBeenCalled();
    expect(popup.location.href).toBe('');
    expect(textOf(host.querySelector('[role="alert"]'))).toBe('This offer cannot be opened here. Please contact your bank.');
    expect(events).toEqual([]);
  });
});
