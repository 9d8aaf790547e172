import type { WidgetView } from '@credit/contract/widget-protocol';
import { useQuery } from '@tanstack/react-query';
import { AlertsPanel } from '../alerts/AlertsPanel.tsx';
import { unreadAlertCountQuery } from '../api/alerts.ts';
import { creditScoreQuery } from '../api/credit.ts';
import { useCurrentView } from '../bridge/events.ts';
import { FactorsPanel } from '../factors/FactorsPanel.tsx';
import { HistoryPanel } from '../history/HistoryPanel.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { OffersPanel } from '../offers/OffersPanel.tsx';
import { ScorePanel } from '../score/ScorePanel.tsx';
import { Badge } from '../ui/Badge.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { type TabItem, TabPanel, Tabs } from '../ui/Tabs.tsx';
import { messages } from './messages.ts';
import './dashboard.css';

/** The only model the platform serves; the API does not name it per score. */
const SCORE_MODEL = 'VantageScore 3.0';
const VIEWS: readonly WidgetView[] = ['score', 'factors', 'history', 'offers', 'alerts'];
const ID_PREFIX = 'cw-dashboard';

/** Where the score comes from: model, bureau and date, shown above every tab. */
function Provenance({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const { formatDate } = useI18n();
  const score = useQuery(creditScoreQuery(userId));
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

function Panel({ view, userId }: { view: WidgetView; userId: string }) {
  switch (view) {
    case 'score':
      return <ScorePanel userId={userId} />;
    case 'factors':
      return <FactorsPanel userId={userId} />;
    case 'history':
      return <HistoryPanel userId={userId} />;
    case 'offers':
      return <OffersPanel userId={userId} />;
    case 'alerts':
      return <AlertsPanel userId={userId} />;
  }
}

/** The enrolled, verified user's dashboard: one tab per view, the selected one kept in sync with the host. */
export function Dashboard({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const { formatNumber } = useI18n();
  const [view, setView] = useCurrentView();
  const unread = useQuery(unreadAlertCountQuery(userId)).data ?? 0;
  // A failed score shows its error screen in the panel; the header then has no provenance line at all.
  const scoreFailed = useQuery(creditScoreQuery(userId)).isError;

  const tabs: TabItem<WidgetView>[] = VIEWS.map((id) => ({
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

  return (
    <div className="cw-dashboard">
      <ScreenHeader title={t.title} subtitle={scoreFailed ? undefined : <Provenance userId={userId} />} />
      <Tabs tabs={tabs} selected={view} onSelect={setView} label={t.tabsLabel} idPrefix={ID_PREFIX} />
      <TabPanel idPrefix={ID_PREFIX} id={view}>
        <Panel view={view} userId={userId} />
      </TabPanel>
    </div>
  );
}
