import type { WidgetView } from '@credit/contract/widget-protocol';

interface DashboardMessages {
  title: string;
  tabsLabel: string;
  tabs: Record<WidgetView, string>;
  /** While a tab's code downloads: "Loading Report…". */
  loadingTab: (tab: string) => string;
  /** Follows the visible count inside the Alerts tab: "Alerts 2 unread". */
  unread: string;
  provenance: (model: string, bureau: string, date: string) => string;
  provenanceLoading: string;
  monitoringOn: string;
  stopMonitoring: string;
}

export const messages: { en: DashboardMessages; es: DashboardMessages } = {
  en: {
    title: 'Your credit',
    tabsLabel: 'Credit dashboard',
    tabs: {
      score: 'Score',
      factors: 'Factors',
      report: 'Report',
      simulator: 'What if',
      history: 'History',
      offers: 'Offers',
      alerts: 'Alerts',
    },
    loadingTab: (tab) => `Loading ${tab}…`,
    unread: 'unread',
    provenance: (model, bureau, date) => `${model} from ${bureau} · as of ${date}`,
    provenanceLoading: 'Loading score details…',
    monitoringOn: 'Credit monitoring is on.',
    stopMonitoring: 'Stop credit monitoring',
  },
  es: {
    title: 'Su crédito',
    tabsLabel: 'Panel de crédito',
    tabs: {
      score: 'Puntaje',
      factors: 'Factores',
      report: 'Informe',
      simulator: 'Simulador',
      history: 'Historial',
      offers: 'Ofertas',
      alerts: 'Alertas',
    },
    loadingTab: (tab) => `Cargando ${tab}…`,
    unread: 'sin leer',
    provenance: (model, bureau, date) => `${model} de ${bureau} · al ${date}`,
    provenanceLoading: 'Cargando los datos del puntaje…',
    monitoringOn: 'El monitoreo de crédito está activo.',
    stopMonitoring: 'Detener el monitoreo de crédito',
  },
};
