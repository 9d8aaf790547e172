import {
  type FrameToHostMessage,
  type HostToFrameMessage,
  type HostToFramePayloads,
  WIDGET_MESSAGE_SOURCE,
  WIDGET_PROTOCOL_VERSION,
} from '@credit/contract/widget-protocol';

export interface Channel {
  send<K extends keyof HostToFramePayloads>(type: K, payload: HostToFramePayloads[K]): void;
  close(): void;
}

/**
 * The loader's end of the postMessage channel with one frame. Accepts a message only when it comes
 * from the widget's origin, from this very iframe's window, and names this frame; sends only to the
 * widget's origin, so a frame navigated elsewhere never receives the token.
 */
export const openChannel = (
  iframe: HTMLIFrameElement,
  widgetOrigin: string,
  frameId: string,
  onMessage: (message: FrameToHostMessage) => void,
  /** True once the page has removed the frame without destroy() and the widget let go of everything. */
  releaseIfDetached: () => boolean,
): Channel => {
  const listener = (event: MessageEvent) => {
    // A removed frame's window is gone, so its messages never pass the checks below: any message on the page
    // is the chance to notice and let go of this listener.
    if (releaseIfDetached()) return;
    if (event.origin !== widgetOrigin || event.source === null || event.source !== iframe.contentWindow) return;
    const data = event.data as Partial<FrameToHostMessage> | null;
    if (
      typeof data !== 'object' ||
      data === null ||
      data.source !== WIDGET_MESSAGE_SOURCE ||
      data.version !== WIDGET_PROTOCOL_VERSION ||
      data.frameId !== frameId ||
      typeof data.type !== 'string'
    ) {
      return;
    }
    onMessage(data as FrameToHostMessage);
  };
  window.addEventListener('message', listener);
  return {
    send(type, payload) {
      const message = {
        source: WIDGET_MESSAGE_SOURCE,
        version: WIDGET_PROTOCOL_VERSION,
        frameId,
        type,
        payload,
      } as HostToFrameMessage;
      iframe.contentWindow?.postMessage(message, widgetOrigin);
    },
    close() {
      window.removeEventListener('message', listener);
    },
  };
};
