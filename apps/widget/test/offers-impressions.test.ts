// @vitest-environment happy-dom
import { act, createElement, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createImpressionQueue, flushWhenHidden } from '../src/offers/impression-queue.ts';
import { useSeen } from '../src/offers/impressions.ts';
import { OffersPanel } from '../src/offers/OffersPanel.tsx';
import { offer } from './offers-fixture.ts';
import { fakeApi, renderPanel, type SentRequest, settle } from './panel-harness.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** An IntersectionObserver the test drives: `show(element, ratio)` reports how much of it is on screen. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  static show(target: Element, ratio: number) {
    for (const observer of FakeObserver.all.filter((o) => o.targets.has(target))) {
      const entry = { target, isIntersecting: ratio > 0, intersectionRatio: ratio } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

const setVisibility = (state: 'visible' | 'hidden') => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
};

beforeEach(() => {
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setVisibility('visible');
});

describe('the impression queue', () => {
  const DAY_ONE = Date.parse('2026-11-30T10:00:00Z');

  it('sends what it gathered in one batch after a few seconds, each offer once a day', async () => {
    vi.useFakeTimers({ now: DAY_ONE });
    const sent: string[][] = [];
    const queue = createImpressionQueue({ send: async (ids) => sent.push(ids), batchDelayMs: 5_000 });
    queue.add('off_a');
    vi.advanceTimersByTime(2_000);
    queue.add('off_b');
    queue.add('off_a');
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(3_000);
    expect(sent).toEqual([['off_a', 'off_b']]);
    // Seen again the same day: nothing more goes.
    queue.add('off_a');
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(1);
    expect(queue.pending()).toEqual([]);
    // The next UTC day counts again.
    vi.setSystemTime(Date.parse('2026-12-01T00:00:01Z'));
    queue.add('off_a');
    vi.advanceTimersByTime(5_000);
    expect(sent).toEqual([['off_a', 'off_b'], ['off_a']]);
  });

  it('sends at once on flush, in batches of at most 50', () => {
    vi.useFakeTimers({ now: DAY_ONE });
    const sent: string[][] = [];
    const queue = createImpressionQueue({ send: async (ids) => sent.push(ids) });
    for (let i = 0; i < 60; i += 1) queue.add(`off_${i}`);
    queue.flush();
    expect(sent.map((batch) => batch.length)).toEqual([50, 10]);
    vi.advanceTimersByTime(60_000);
    expect(sent).toHaveLength(2);
  });

  it('tries a failed batch again later, and gives up after three tries', async () => {
    vi.useFakeTimers({ now: DAY_ONE });
    const send = vi.fn(async (_ids: string[]): Promise<unknown> => {
      throw new Error('offline');
    });
    const queue = createImpressionQueue({ send, batchDelayMs: 1_000 });
    queue.add('off_a');
    for (let i = 0; i < 5; i += 1) await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(queue.pending()).toEqual([]);
    // Dropped, it may be queued again by a later sighting.
    send.mockResolvedValueOnce(undefined);
    queue.add('off_a');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(4);
  });

  it('sends when the page is hidden or left, and stops listening when told', () => {
    const flush = vi.fn();
    const stop = flushWhenHidden({ flush });
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));
    expect(flush).toHaveBeenCalledTimes(2);
    setVisibility('visible');
    expect(flush).toHaveBeenCalledTimes(2);
    stop();
    window.dispatchEvent(new Event('pagehide'));
    expect(flush).toHaveBeenCalledTimes(2);
  });
});

/** An element watched by the hook, standing in for an offer's card. */
function Probe({ onSeen }: { onSeen: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useSeen(ref, onSeen);
  return createElement('div', { ref, id: 'probe' });
}

describe('a card seen', () => {
  const mount = async (onSeen: () => void) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => root.render(createElement(Probe, { onSeen })));
    const element = host.querySelector('#probe') as Element;
    return {
      element,
      show: (ratio: number) => act(() => FakeObserver.show(element, ratio)),
      unmount: async () => {
        await act(async () => root.unmount());
        host.remove();
      },
    };
  };

  it('counts once at least half of it has been on screen for one continuous second', async () => {
    vi.useFakeTimers();
    const onSeen = vi.fn();
    const card = await mount(onSeen);
    expect(FakeObserver.all[0]?.options.threshold).toBe(0.5);
    await card.show(0.3);
    vi.advanceTimersByTime(5_000);
    expect(onSeen).not.toHaveBeenCalled();

    // Half on screen for 0.8 s, then scrolled away: the second starts again.
    await card.show(0.5);
    vi.advanceTimersByTime(800);
    await card.show(0);
    vi.advanceTimersByTime(1_000);
    expect(onSeen).not.toHaveBeenCalled();

    await card.show(0.9);
    vi.advanceTimersByTime(999);
    expect(onSeen).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onSeen).toHaveBeenCalledTimes(1);

    // Once is all: the observer has let go of it.
    await card.show(0);
    await card.show(1);
    vi.advanceTimersByTime(5_000);
    expect(onSeen).toHaveBeenCalledTimes(1);
    await card.unmount();
  });

  it('does not count while the page is hidden, nor after the card is gone', async () => {
    vi.useFakeTimers();
    const onSeen = vi.fn();
    const card = await mount(onSeen);
    await card.show(1);
    vi.advanceTimersByTime(600);
    setVisibility('hidden');
    vi.advanceTimersByTime(5_000);
    expect(onSeen).not.toHaveBeenCalled();
    setVisibility('visible');
    vi.advanceTimersByTime(600);
    await card.unmount();
    vi.advanceTimersByTime(5_000);
    expect(onSeen).not.toHaveBeenCalled();
  });
});

describe('the offers tab', () => {
  it('sends the cards seen, each once, in one request', async () => {
    const impressions: SentRequest[] = [];
    const { api } = fakeApi({
      'GET /v1/users/usr_1/offers?limit=50': () => ({
        data: [offer(), offer({ offerId: 'off_second0000001', name: 'Second' }), offer({ offerId: 'off_third00000001' })],
      }),
      'POST /v1/users/usr_1/offers/impressions': (request) => {
        impressions.push(request);
        return { data: { counted: 2, alreadyCounted: 0 } };
      },
    });
    const page = await renderPanel(createElement(OffersPanel, { userId: 'usr_1' }), { api });
    await settle(() => page.host.querySelectorAll('li.cw-offer').length === 3);
    const [first, second] = page.host.querySelectorAll('li.cw-offer');
    vi.useFakeTimers();
    act(() => {
      FakeObserver.show(first as Element, 1);
      FakeObserver.show(second as Element, 0.6);
    });
    vi.advanceTimersByTime(1_000);
    act(() => FakeObserver.show(first as Element, 1));
    vi.advanceTimersByTime(1_000);
    // Leaving the page sends what is queued without waiting for the batch.
    window.dispatchEvent(new Event('pagehide'));
    vi.useRealTimers();
    await settle(() => impressions.length > 0);
    expect(impressions.map((request) => request.body)).toEqual([{ offerIds: ['off_refi000000001', 'off_second0000001'] }]);
    await page.unmount();
  });
});
