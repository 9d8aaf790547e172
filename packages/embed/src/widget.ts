import type { FrameToHostMessage, WidgetEvent, WidgetView } from '@credit/contract/widget-protocol';
import {
  applyHeight,
  createFrame,
  DEFAULT_INITIAL_HEIGHT_PX,
  frameUrl,
  newFrameId,
  reserveSpace,
  scrollAndFocus,
  validHeight,
} from './frame.ts';
import { openChannel } from './messaging.ts';
import { checkView, resolveOptions } from './options.ts';
import { tokenRefresher } from './token-refresh.ts';
import { type CreditWidgetHandle, type CreditWidgetOptions, WIDGET_DOM_EVENT } from './types.ts';

/** A container holds at most one live widget, so create → destroy → create (React StrictMode) leaves one frame. */
const liveWidgets = new WeakMap<HTMLElement, CreditWidgetHandle>();

export const widgetIn = (container: HTMLElement) => liveWidgets.get(container);

/** A partner's callback that throws must not break the widget; the error still reaches the console. */
const callSafely = (callback: (() => void) | undefined) => {
  try {
    callback?.();
  } catch (error) {
    console.error('CreditWidget: a callback threw', error);
  }
};

const isWidgetEvent = (value: unknown): value is WidgetEvent =>
  typeof value === 'object' && value !== null && typeof (value as WidgetEvent).name === 'string';

export const createWidget = (rawOptions: CreditWidgetOptions, scriptSrc: string | undefined): CreditWidgetHandle => {
  const options = resolveOptions(rawOptions, scriptSrc);
  const { container, widgetOrigin } = options;
  liveWidgets.get(container)?.destroy();

  const frameId = newFrameId();
  const initialHeight = options.initialHeight ?? DEFAULT_INITIAL_HEIGHT_PX[options.view ?? 'score'];
  const iframe = createFrame(frameUrl(options.baseUrl, frameId), frameId, options.locale, initialHeight);
  // Until the first real screen (or an error screen), the frame's loading skeleton must not shrink the page:
  // the partner's content below would jump up and then down again. Afterwards the frame's own height rules.
  const releaseSpace = reserveSpace(container, initialHeight);
  let settled = false;
  let reportedHeight: number | null = null;
  const settle = () => {
    if (settled) return;
    settled = true;
    releaseSpace();
    if (reportedHeight !== null) applyHeight(iframe, reportedHeight);
  };
  const refreshToken = tokenRefresher(options.onTokenExpired);
  let userToken = options.userToken;
  let view = options.view;
  let loaded = false;
  let destroyed = false;

  const emit = (event: WidgetEvent) => {
    if (event.name === 'ready' || event.name === 'error') settle();
    callSafely(() => options.onEvent?.(event));
    if (event.name === 'exit') callSafely(options.onExit);
    container.dispatchEvent(new CustomEvent(WIDGET_DOM_EVENT, { detail: event, bubbles: true }));
  };

  /** A container built off-page and attached later is not "removed": only a frame that was on the page can leave it. */
  let wasConnected = false;
  const releaseIfDetached = () => {
    if (iframe.isConnected) wasConnected = true;
    else if (wasConnected) handle.destroy();
    return destroyed;
  };

  const readyTimer = setTimeout(() => {
    if (loaded || destroyed) return;
    // Removed from the page without destroy() (a framework unmounting the container): not a refusal.
    if (!iframe.isConnected) return void releaseIfDetached();
    emit({
      name: 'error',
      data: {
        code: 'FRAME_REFUSED',
        message: `The widget did not start within ${options.readyTimeoutMs} ms: ${location.origin} may not be one of the client's embed origins, or ${widgetOrigin} is unreachable.`,
      },
    });
  }, options.readyTimeoutMs);

  const onMessage = (message: FrameToHostMessage) => {
    switch (message.type) {
      case 'frame_loaded':
        // Also after the frame reloads itself: it starts from scratch and needs the current token again.
        loaded = true;
        channel.send('init', { userToken, view, theme: options.theme, locale: options.locale });
        break;
      case 'resize': {
        const height = validHeight(message.payload?.height);
        if (height === null) break;
        reportedHeight = height;
        applyHeight(iframe, settled ? height : Math.max(height, initialHeight));
        break;
      }
      case 'event':
        if (isWidgetEvent(message.payload)) emit(message.payload);
        break;
      case 'token_request':
        refreshToken().then((fresh) => {
          if (destroyed) return;
          if (fresh) {
            userToken = fresh;
            channel.send('token', { userToken: fresh });
          } else {
            channel.send('token_unavailable', {});
          }
        });
        break;
    }
  };
  const channel = openChannel(iframe, widgetOrigin, frameId, onMessage, releaseIfDetached);

  const handle: CreditWidgetHandle = {
    iframe,
    setView(next: WidgetView) {
      checkView(next);
      if (destroyed || next === undefined) return;
      view = next;
      if (loaded) channel.send('set_view', { view: next });
    },
    open(next?: WidgetView) {
      checkView(next);
      if (destroyed) return;
      if (container.hidden) container.hidden = false;
      iframe.hidden = false;
      if (iframe.style.display === 'none') iframe.style.display = 'block';
      if (next) handle.setView(next);
      scrollAndFocus(iframe);
    },
    refresh() {
      // A frame still loading fetches everything fresh anyway.
      if (!destroyed && loaded) channel.send('refresh', {});
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      clearTimeout(readyTimer);
      channel.close();
      iframe.remove();
      releaseSpace();
      if (liveWidgets.get(container) === handle) liveWidgets.delete(container);
    },
  };
  liveWidgets.set(container, handle);
  container.appendChild(iframe);
  wasConnected = iframe.isConnected;
  return handle;
};
