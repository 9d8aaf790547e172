import type { WidgetView } from '@credit/contract/widget-protocol';
import { createContext, type ReactNode, useCallback, useContext, useSyncExternalStore } from 'react';
import type { WidgetServices } from './services.ts';

const WidgetServicesContext = createContext<WidgetServices | null>(null);

export function WidgetServicesProvider({ services, children }: { services: WidgetServices; children: ReactNode }) {
  return <WidgetServicesContext.Provider value={services}>{children}</WidgetServicesContext.Provider>;
}

export const useWidgetServices = (): WidgetServices => {
  const services = useContext(WidgetServicesContext);
  if (!services) throw new Error('useWidgetServices needs a <WidgetServicesProvider> above it');
  return services;
};

/** The API client for query factories: `useQuery(creditScoreQuery(useApi(), userId))`. */
export const useApi = () => useWidgetServices().api;

export const useEmitEvent = () => useWidgetServices().emitEvent;

/** The dashboard tab: set by the host (`init.view`, `set_view`) and by the tabs; changes emit `view_changed`. */
export const useCurrentView = (): [WidgetView, (view: WidgetView) => void] => {
  const { screens } = useWidgetServices();
  const view = useSyncExternalStore(screens.subscribe, screens.dashboardView, screens.dashboardView);
  return [view, useCallback((next: WidgetView) => screens.setView(next), [screens])];
};
