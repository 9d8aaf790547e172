import type { WidgetEvent, WidgetScreenName, WidgetView } from '@credit/contract/widget-protocol';

/** What the customer sees: a dashboard view, or one of the steps (enrolment, verification, consent, withdrawal). */
export type WidgetScreen = WidgetScreenName;

const STEPS: ReadonlySet<WidgetScreen> = new Set(['enroll', 'verify', 'consent', 'withdraw']);

/**
 * Which screen the frame shows and which dashboard tab is selected, and the public events that follow from
 * them: the first real screen is `ready`, later ones `view_changed`. Error screens are not screens here;
 * they report through `error` events.
 */
export class ScreenState {
  private view: WidgetView = 'score';
  private dashboardShown = false;
  private readySent = false;
  private lastScreen: WidgetScreen | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly sendEvent: (event: WidgetEvent) => void) {}

  /** Sends a public event (ready, view_changed, enrolled, …) to the host. */
  emit = (event: WidgetEvent): void => {
    this.sendEvent(event);
  };

  /** Tells the host which screen is visible. */
  report = (screen: WidgetScreen): void => {
    this.dashboardShown = !STEPS.has(screen);
    if (screen === this.lastScreen) return;
    this.lastScreen = screen;
    if (!this.readySent) {
      this.readySent = true;
      this.emit({ name: 'ready', data: { view: screen } });
    } else {
      this.emit({ name: 'view_changed', data: { view: screen } });
    }
  };

  /** The dashboard view to show; App reports it when the dashboard appears. */
  dashboardView = (): WidgetView => this.view;

  /** Selects a tab (the customer, or the host's `set_view`); once the dashboard shows, the host hears of it. */
  setView = (view: WidgetView): void => {
    if (view === this.view) return;
    this.view = view;
    for (const listener of this.listeners) listener();
    if (this.dashboardShown) this.report(view);
  };

  /** The host's starting view (`init.view` or the fragment's `view`), before anything renders. */
  setInitialView = (view: WidgetView | undefined): void => {
    if (view) this.view = view;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
}
