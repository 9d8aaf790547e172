import type { WidgetView } from '@credit/contract/widget-protocol';
import type { CreditClient } from '@credit/sdk/browser';
import { type UsePrefetchQueryOptions, usePrefetchQuery } from '@tanstack/react-query';
import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { WidgetError } from '../errors/widget-error.ts';
import { useMessages } from '../i18n/index.ts';
import { reloadFailedStylesheets } from './failed-stylesheets.ts';
import { messages } from './messages.ts';
import { PanelError } from './PanelError.tsx';
import { PanelSkeleton } from './PanelSkeleton.tsx';

interface PanelProps {
  userId: string;
}
type PanelModule = { default: ComponentType<PanelProps> };

/** Shows what a panel threw in place of the panel, instead of the whole frame going blank. */
class PanelBoundary extends Component<{ fallback: (error: unknown) => ReactNode; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: any query's options; the panel reads the data through its own typed query.
type AnyQueryOptions = UsePrefetchQueryOptions<any, any, any, any, any>;

function Prefetch({ options }: { options: AnyQueryOptions }) {
  usePrefetchQuery(options);
  return null;
}

/**
 * A dashboard panel in a chunk of its own, downloaded the first time its tab opens. The data it needs first can
 * start downloading beside the code (`prefetch`), not after it. A chunk that fails to download (the connection
 * dropped) shows the network error screen, whose "Try again" asks for the chunk, and any stylesheet that failed,
 * once more.
 */
export const lazyPanel = (
  view: WidgetView,
  load: () => Promise<PanelModule>,
  prefetch?: (api: CreditClient, userId: string) => AnyQueryOptions,
): ComponentType<PanelProps> => {
  // A stylesheet that failed with the chunk is downloaded again first (Vite's helper would skip it on a retry).
  const download = () =>
    reloadFailedStylesheets()
      .then(load)
      .catch((cause: unknown) => {
        throw new WidgetError('NETWORK_ERROR', `The ${view} tab could not be downloaded: ${String(cause)}`);
      });
  // A rejected lazy component stays rejected: a retry needs a new one.
  let Panel = lazy(download);

  // biome-ignore lint/correctness/noComponentHookFactories: called once per view when the module loads, as React.lazy is, never while rendering.
  return function LazyPanel({ userId }: PanelProps) {
    const t = useMessages(messages);
    const api = useApi();
    const [attempt, setAttempt] = useState(0);
    const retry = () => {
      Panel = lazy(download);
      setAttempt((n) => n + 1);
    };
    return (
      <>
        {prefetch ? <Prefetch options={prefetch(api, userId)} /> : null}
        <PanelBoundary key={attempt} fallback={(error) => <PanelError error={error} onRetry={retry} />}>
          <Suspense fallback={<PanelSkeleton label={t.loadingTab(t.tabs[view])} />}>
            <Panel userId={userId} />
          </Suspense>
        </PanelBoundary>
      </>
    );
  };
};
