import { WIDGET_VIEWS, type WidgetView } from '@credit/contract/widget-protocol';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { AlertsPanel } from '../alerts/AlertsPanel.tsx';
import { unreadAlertCountQuery } from '../api/alerts.ts';
import { creditReportQuery, creditScoreQuery } from '../api/credit.ts';
import { useApi, useCurrentView } from '../app/WidgetServicesProvider.tsx';
import { FactorsPanel } from '../factors/FactorsPanel.tsx';
import { HistoryPanel } from '../history/HistoryPanel.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { OffersPanel } from '../offers/OffersPanel.tsx';
import { ScorePanel } from '../score/ScorePanel.tsx';
import { useScoreLoadedEvent } from '../score/useScoreLoadedEvent.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { type TabItem, TabPanel, Tabs } from '../ui/Tabs.tsx';
import { lazyPanel } from './LazyPanel.tsx';
import { messages } from './messages.ts';
import './dashboard.css';

/** The only model the platform serves; the API does not name it per score. */
const SCORE_MODEL = 'VantageScore 3.0';
const ID_PREFIX = 'cw-dashboard';

/** Where the score comes from: model, bureau and date, shown above every tab. */
function Provenance({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const { formatDate } = useI18n();
  const score = useQuery(creditScoreQuery(api, userId));
  if (score.isPending) {
    return (
      <span className="cw-dashboard__provenance-loading">
        <span className="cw-visually-hidden">{t.provenanceLoading}</span>
        <Skeleton width="70%" height={14} />
      </span>
    );
  }
  if (score.isError) return null;
  return <>{t.provenance(SCORE_MODEL, score.data.bureau, formatDate(score.data.scoreDate, { dateStyle: 'long' }))}</>;
}

/**
 * One panel per view the host may open: a view added to the contract's `WIDGET_VIEWS` does not compile
 * until it has a panel here, and the tabs follow the contract's order. The report and the what-if tool are
 * their own chunks: most visits never open them, and the partner's page waits on the first load.
 */
const PANELS = {
  score: ScorePanel,
  factors: FactorsPanel,
  report: lazyPanel('report', () => import('../report/ReportPanel.tsx'), creditReportQuery),
  simulator: lazyPanel('simulator', () => import('../simulator/SimulatorPanel.tsx'), creditReportQuery),
  history: HistoryPanel,
  offers: OffersPanel,
  alerts: AlertsPanel,
} satisfies Record<WidgetView, ComponentType<{ userId: string }>>;

/** The enrolled, verified user's dashboard: one tab per view, the selected one kept in sync with the host. */
export function Dashboard({ userId, onStopMonitoring }: { userId: string; onStopMonitoring?: () => void }) {
  const t = useMessages(messages);
  const { formatNumber } = useI18n();
  const api = useApi();
  const [view, setView] = useCurrentView();
  const unread = useQuery(unreadAlertCountQuery(api, userId)).data ?? 0;
  // A failed score shows its error screen in the panel; the header then has no provenance line at all.
  const score = useQuery(creditScoreQuery(api, userId));
  const scoreFailed = score.isError;
  useScoreLoadedEvent(userId, score.data);

  const tabs: TabItem<WidgetView>[] = WIDGET_VIEWS.map((id) => ({
    id,
    label: t.tabs[id],
    badge:
      id === 'alerts' && unread > 0 ? (
        <Badge tone="danger" className="cw-dashboard__unread">
          {formatNumber(unread)}
          <span className="cw-visually-hidden"> {t.unread}</span>
        </Badge>
      ) : undefined,
  }));

  const ViewPanel = PANELS[view];
  return (
    <div className="cw-dashboard">
      <ScreenHeader title={t.title} subtitle={scoreFailed ? undefined : <Provenance userId={userId} />} />
      <Tabs tabs={tabs} selected={view} onSelect={setView} label={t.tabsLabel} idPrefix={ID_PREFIX} />
      <TabPanel idPrefix={ID_PREFIX} id={view}>
        <ViewPanel userId={userId} />
      </TabPanel>
      {onStopMonitoring ? (
        // Withdrawing is one press away on every tab: no harder to find than the consent was to give.
        <footer className="cw-monitoring-footer">
          <span>{t.monitoringOn}</span>
          <Button variant="link" size="sm" onClick={onStopMonitoring}>
            {t.stopMonitoring}
          </Button>
        </footer>
      ) : null}
    </div>
  );
}
