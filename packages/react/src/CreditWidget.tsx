'use client';
import type { WidgetEvent, WidgetLocale, WidgetTheme, WidgetView } from '@credit/contract/widget-protocol';
import { DEFAULT_INITIAL_HEIGHT_PX } from '@credit/embed/frame';
import type { CreditWidgetApi, CreditWidgetHandle } from '@credit/embed/types';
import { type CSSProperties, forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { loadEmbed, widgetBaseUrl } from './load-embed.ts';
import { errorEvent, type FetchUserToken, fetchCheckedToken } from './user-token.ts';

/**
 * Optional props also take `undefined`, so a partner compiling with `exactOptionalPropertyTypes` can pass its own
 * optional props straight through (`onEvent={props.onEvent}`).
 */
export interface CreditWidgetProps {
  /** The loader on the Credit API, e.g. `https://api.example.com/embed.js`; added to the page once. */
  embedUrl: string;
  /**
   * Returns a fresh `ut_…` user token from your server (`POST /v1/auth/user-token` there). Called once when
   * the widget starts and again whenever the token expires; never put your client secret in the browser.
   */
  fetchUserToken: FetchUserToken;
  /** Dashboard screen to show; changing it switches the tab without reloading the frame. Default `score`. */
  view?: WidgetView | undefined;
  /** Default `en`. Changing it (or `theme`) starts the widget afresh in the new language. */
  locale?: WidgetLocale | undefined;
  theme?: WidgetTheme | undefined;
  /** Every public event, typed: `switch (event.name)` narrows `event.data`. */
  onEvent?: ((event: WidgetEvent) => void) | undefined;
  /** The customer pressed "Close". */
  onExit?: (() => void) | undefined;
  /** Height in CSS px held until the first screen shows. Default by `view`, as the loader's (score 800 px). */
  initialHeight?: number | undefined;
  /** How long the frame may take to start before an `error` event `FRAME_REFUSED`. Default 15000. */
  readyTimeoutMs?: number | undefined;
  id?: string | undefined;
  className?: string | undefined;
  style?: CSSProperties | undefined;
}

/** What a `ref` on `<CreditWidget>` offers; calls before the frame exists do nothing. */
export interface CreditWidgetRef {
  /** Refetches everything the widget shows, e.g. after your server refreshed the score. */
  refresh(): void;
  /** Scrolls to the widget and focuses it, switching to `view` if given. */
  open(view?: WidgetView): void;
}

/**
 * The Credit widget in a React tree. The frame is created in an effect, so server rendering yields only the
 * container, with its height reserved; StrictMode's mount → unmount → mount leaves one frame.
 */
export const CreditWidget = forwardRef<CreditWidgetRef, CreditWidgetProps>(function CreditWidget(props, ref) {
  const { embedUrl, view, locale, theme, initialHeight, readyTimeoutMs, id, className, style } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<CreditWidgetHandle | null>(null);
  // The partner's callbacks change identity on every render; the frame must not restart for that.
  const callbacks = useRef(props);
  // One token for StrictMode's two effect runs (the ref outlives the simulated unmount), and the freshest
  // one for a restart after `locale` or `theme` changed (the frame asks again if it has expired).
  const token = useRef<Promise<string> | null>(null);
  const latestView = useRef(view);
  // The page holds the space until the first screen (or an error screen) shows; then the frame's own height rules.
  const [settled, setSettled] = useState(false);
  const reservedHeight = initialHeight ?? DEFAULT_INITIAL_HEIGHT_PX[view ?? 'score'];
  const reservedHeightRef = useRef(reservedHeight);
  const themeKey = JSON.stringify(theme ?? null);

  useEffect(() => {
    callbacks.current = props;
    latestView.current = view;
    reservedHeightRef.current = reservedHeight;
  });

  useImperativeHandle(
    ref,
    () => ({
      refresh: () => handleRef.current?.refresh(),
      open: (next) => handleRef.current?.open(next),
    }),
    [],
  );

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let cancelled = false;
    let handle: CreditWidgetHandle | null = null;
    const emit = (event: WidgetEvent) => callbacks.current.onEvent?.(event);
    const fail = (event: WidgetEvent) => {
      if (cancelled) return;
      setSettled(true);
      emit(event);
    };
    const freshToken = () => {
      const fetching = fetchCheckedToken(() => callbacks.current.fetchUserToken());
      token.current = fetching;
      fetching.catch(() => {
        if (token.current === fetching) token.current = null;
      });
      return fetching;
    };

    const start = async () => {
      const src = new URL(embedUrl, document.baseURI).href;
      let loader: CreditWidgetApi;
      try {
        loader = await loadEmbed(src);
      } catch (error) {
        return fail(errorEvent('NETWORK_ERROR', error));
      }
      // StrictMode's first, discarded run ends here, so the partner's server mints one token, not two.
      if (cancelled) return;
      let userToken: string;
      try {
        userToken = await (token.current ?? freshToken());
      } catch (error) {
        return fail(errorEvent('INVALID_TOKEN', error));
      }
      if (cancelled) return;
      try {
        handle = loader.create({
          container,
          baseUrl: widgetBaseUrl(src),
          userToken,
          view: latestView.current,
          locale,
          theme: JSON.parse(themeKey) ?? undefined,
          initialHeight: reservedHeightRef.current,
          readyTimeoutMs,
          onEvent: (event) => {
            if (event.name === 'ready' || event.name === 'error') setSettled(true);
            emit(event);
          },
          onExit: () => callbacks.current.onExit?.(),
          onTokenExpired: freshToken,
        });
        handleRef.current = handle;
      } catch (error) {
        // Options the loader refused (a bad `theme`, say): a programming error, so the console hears of it too.
        console.error(error);
        fail(errorEvent('UNKNOWN', error));
      }
    };
    void start();
    return () => {
      cancelled = true;
      handle?.destroy();
      if (handleRef.current === handle) handleRef.current = null;
    };
  }, [embedUrl, locale, themeKey, readyTimeoutMs]);

  useEffect(() => {
    if (view) handleRef.current?.setView(view);
  }, [view]);

  return (
    <div
      ref={containerRef}
      id={id}
      className={className}
      data-credit-widget-container=""
      style={settled ? style : { ...style, minHeight: reservedHeight }}
    />
  );
});
