import type { CreditClient } from '@credit/sdk/browser';
import { type RefObject, useEffect, useRef } from 'react';
import { recordOfferImpressions } from '../api/offers.ts';
import { createImpressionQueue, flushWhenHidden, type ImpressionQueue } from './impression-queue.ts';

/** A card counts as seen once at least this share of it has been on screen… */
export const SEEN_RATIO = 0.5;
/** …for this long without a break. */
export const SEEN_DWELL_MS = 1_000;

const queues = new WeakMap<CreditClient, Map<string, ImpressionQueue>>();

/**
 * The frame's one queue per customer: it outlives the Offers tab (switching tabs unmounts it), so an offer seen,
 * left and seen again is still sent once a day for as long as the widget is open.
 */
export const impressionQueueFor = (api: CreditClient, userId: string): ImpressionQueue => {
  let byUser = queues.get(api);
  if (!byUser) {
    byUser = new Map();
    queues.set(api, byUser);
  }
  let queue = byUser.get(userId);
  if (!queue) {
    queue = createImpressionQueue({ send: (offerIds) => recordOfferImpressions(api, userId, offerIds) });
    if (typeof window !== 'undefined') flushWhenHidden(queue);
    byUser.set(userId, queue);
  }
  return queue;
};

/**
 * Calls `onSeen` once the element (the offer's card) has been at least half on screen for one continuous second
 * while the page is visible; leaving the screen or hiding the page before then starts the second again. Inside the
 * frame the observer's implicit root is the top-level viewport, so a card below the host page's fold is not seen.
 */
export const useSeen = (ref: RefObject<Element | null>, onSeen: () => void): void => {
  const latest = useRef(onSeen);
  latest.current = onSeen;

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    let onScreen = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
    const update = () => {
      if (onScreen && document.visibilityState !== 'hidden') {
        timer ??= setTimeout(() => {
          timer = undefined;
          observer.disconnect();
          document.removeEventListener('visibilitychange', update);
          latest.current();
        }, SEEN_DWELL_MS);
      } else stop();
    };
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        onScreen = entry.isIntersecting && entry.intersectionRatio >= SEEN_RATIO;
        update();
      },
      { threshold: SEEN_RATIO },
    );
    observer.observe(element);
    document.addEventListener('visibilitychange', update);
    return () => {
      stop();
      observer.disconnect();
      document.removeEventListener('visibilitychange', update);
    };
  }, [ref]);
};
