import type { WidgetEvent, WidgetView } from '@credit/contract/widget-protocol';
import { useCallback, useSyncExternalStore } from 'react';
import { onHostView, sendEvent } from './host.ts';

/** What the customer sees: a dashboard view, or one of the onboarding steps. */
export type WidgetScreen = WidgetView | 'enroll' | 'verify';

/** Sends a public event (ready, view_changed, enrolled, …) to the host. */
export const emitEvent = (event: WidgetEvent): void => {
  sendEvent(event);
};

let currentView: WidgetView = 'score';
let dashboardShown = false;
let readySent = false;
let lastScreen: WidgetScreen | null = null;
const listeners = new Set<() => void>();

/**
 * Tells the host which screen is visible: the first real screen is `ready`, later ones `view_changed`.
 * Error screens are not screens here; they report through `error` events.
 */
export const reportScreen = (screen: WidgetScreen): void => {
  dashboardShown = screen !== 'enroll' && screen !== 'verify';
  if (screen === lastScreen) return;
  lastScreen = screen;
  if (!readySent) {
    readySent = true;
    emitEvent({ name: 'ready', data: { view: screen } });
  } else {
    emitEvent({ name: 'view_changed', data: { view: screen } });
  }
};

/** The dashboard view to show; App reports it when the dashboard appears. */
export const dashboardView = (): WidgetView => currentView;

const setView = (view: WidgetView) => {
  if (view === currentView) return;
  currentView = view;
  for (const listener of listeners) listener();
  if (dashboardShown) reportScreen(view);
};

/** The host's starting view (`init.view` or the fragment's `view`), before anything renders. */
export const setInitialView = (view: WidgetView | undefined): void => {
  if (view) currentView = view;
};

onHostView(setView);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The dashboard tab: set by the host (`init.view`, `set_view`) and by the tabs; changes emit `view_changed`. */
export const useCurrentView = (): [WidgetView, (view: WidgetView) => void] => {
  const view = useSyncExternalStore(subscribe, dashboardView, dashboardView);
  return [view, useCallback((next: WidgetView) => setView(next), [])];
};
