import { CreditWidget, type CreditWidgetRef, type WidgetEvent, type WidgetView } from '@credit/react';
import { useCallback, useRef, useState } from 'react';

const DASHBOARD_VIEWS: readonly string[] = ['score', 'factors', 'history', 'offers', 'alerts'] satisfies WidgetView[];
const isDashboardView = (view: string): view is WidgetView => DASHBOARD_VIEWS.includes(view);

export interface ReactDemoConfig {
  user: string;
  /** Where the browser loads the loader: the API's `/embed.js`. */
  embedUrl: string;
}

declare global {
  interface Window {
    /** The widget's events, for the browser journeys (as on the script-tag page). */
    demoEvents?: WidgetEvent[];
  }
}

/** Reads one string field of the bank server's own JSON answers (not API responses, which go through the SDK). */
function stringField(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}

/** What a partner's React front end writes around `<CreditWidget>`: the token from its own server, events, a tab. */
export function ReactDemoPage({ user, embedUrl }: ReactDemoConfig) {
  const widget = useRef<CreditWidgetRef>(null);
  const [view, setView] = useState<WidgetView>('score');
  const [events, setEvents] = useState<WidgetEvent[]>([]);
  const [status, setStatus] = useState('');
  const userQuery = `user=${encodeURIComponent(user)}`;

  // The bank's own server mints the token; the browser never sees the client secret.
  const fetchUserToken = useCallback(async () => {
    const response = await fetch(`/token?${userQuery}`, { method: 'POST' });
    const body: unknown = await response.json();
    const userToken = stringField(body, 'userToken');
    if (!response.ok || !userToken)
      throw new Error(stringField(body, 'error') ?? `The bank's server answered ${response.status}`);
    return userToken;
  }, [userQuery]);

  const onEvent = (event: WidgetEvent) => {
    window.demoEvents = [...(window.demoEvents ?? []), event];
    setEvents((shown) => [...shown, event]);
    // Only dashboard tabs follow the widget; a step (enrolment, verification, consent) is not a view to open.
    if (event.name === 'view_changed' && isDashboardView(event.data.view)) setView(event.data.view);
  };

  const refreshScore = async () => {
    setStatus('Working…');
    const response = await fetch(`/sandbox/score-refresh?${userQuery}`, { method: 'POST' });
    const body: unknown = await response.json();
    setStatus(stringField(body, 'message') ?? stringField(body, 'error') ?? '');
    if (response.ok) widget.current?.refresh();
  };

  return (
    <main className="bank-main">
      <h1>Your credit score</h1>
      <p>
        Signed in as customer <strong id="customer-id">{user}</strong>. This page renders the widget with the{' '}
        <code>@credit/react</code> component. <a href={`/?${userQuery}`}>The same customer on the script-tag page</a>
      </p>
      <div className="controls">
        <button type="button" onClick={() => setView('offers')}>
          Show my offers
        </button>
        <button type="button" onClick={refreshScore}>
          Refresh score
        </button>
      </div>
      <div role="status">{status}</div>
      <CreditWidget
        ref={widget}
        className="widget-slot"
        embedUrl={embedUrl}
        fetchUserToken={fetchUserToken}
        view={view}
        theme={{ brandColor: '#b3261e', radius: 12 }}
        onEvent={onEvent}
        onExit={() => setStatus('The customer closed the widget (onExit).')}
      />
      <section className="panel" aria-labelledby="events-heading">
        <h2 id="events-heading">Widget events</h2>
        <ol id="event-log" aria-labelledby="events-heading">
          {events.map((event, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows; an event's position is its identity.
            <li key={index} data-event-name={event.name}>
              <strong>{event.name}</strong> {JSON.stringify(event.data)}
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}
