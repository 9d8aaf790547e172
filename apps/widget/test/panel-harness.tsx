import type { WidgetLocale } from '@credit/contract/widget-protocol';
import { bearerAuth, CreditClient } from '@credit/sdk/browser';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { LiveAnnouncer } from '../src/a11y/announcer.tsx';
import type { WidgetServices } from '../src/app/services.ts';
import { WidgetServicesProvider } from '../src/app/WidgetServicesProvider.tsx';
import { I18nProvider } from '../src/i18n/index.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

/** What a route answers: the data of a success, or the API's error envelope with its status. */
export type Answer = { data: unknown } | { status: number; error: { code: string; message: string; details?: unknown[] } };

/**
 * The API as the panels reach it through the SDK: `routes` by `METHOD /path`, each request recorded with its
 * parsed body, anything else a 404.
 */
export const fakeApi = (routes: Record<string, (request: SentRequest) => Answer>) => {
  const requests: SentRequest[] = [];
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const request = {
      method: init.method ?? 'GET',
      path: input,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const meta = { requestId: 'req_test', timestamp: '2026-11-30T12:00:00Z' };
    const answer: Answer = route
      ? route(request)
      : { status: 404, error: { code: 'NOT_FOUND', message: `No route ${request.method} ${request.path}` } };
    const [status, body] = 'data' in answer ? [200, { data: answer.data, meta }] : [answer.status, { error: answer.error, meta }];
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const api = new CreditClient({
    baseUrl: '',
    auth: bearerAuth(() => 'ut_sbx_test'),
    fetch: fetch as typeof globalThis.fetch,
    maxRetries: 0,
  });
  return { api, requests };
};

/**
 * Renders a dashboard panel as the frame would, with the API client, a query cache, the locale and the live
 * region. Only what panels use of the frame's services is there: the client and the event sink.
 */
export const renderPanel = async (element: ReactNode, { api, locale = 'en' }: { api: CreditClient; locale?: WidgetLocale }) => {
  const events: unknown[] = [];
  const services = { api, emitEvent: (event: unknown) => events.push(event) } as unknown as WidgetServices;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  await act(async () => {
    root.render(
      <WidgetServicesProvider services={services}>
        <QueryClientProvider client={queryClient}>
          <I18nProvider locale={locale}>
            <LiveAnnouncer />
            {element}
          </I18nProvider>
        </QueryClientProvider>
      </WidgetServicesProvider>,
    );
  });
  return {
    host,
    events,
    unmount: async () => {
      await act(async () => root.unmount());
      host.remove();
      queryClient.clear();
    },
  };
};

/** Lets requests answer and React apply what they change, until `until` holds (or a second has passed). */
export const settle = async (until: () => boolean) => {
  for (let round = 0; round < 200 && !until(); round += 1) {
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
  }
  if (!until()) throw new Error('the panel never reached the expected state');
};

/** Types into a controlled input or picks in a select as a person would: React hears the event it listens for. */
export const enter = async (control: HTMLInputElement | HTMLSelectElement, value: string) => {
  await act(async () => {
    const prototype = control instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(control, value);
    control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
};

export const click = async (element: HTMLElement) => {
  await act(async () => element.click());
};

/** The element's visible text plus what only screen readers get, as one string with spaces tidied. */
export const textOf = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
