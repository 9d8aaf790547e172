import type { ReactNode } from 'react';
import { LiveAnnouncer } from '../a11y/announcer.tsx';
import type { LaunchMode } from '../bridge/launch.ts';
import { useMessages } from '../i18n/index.ts';
import { ScoreSkeleton } from '../score/ScoreSkeleton.tsx';
import { Button } from '../ui/Button.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { messages } from './messages.ts';
import { useEmitEvent } from './WidgetServicesProvider.tsx';

/** The frame's chrome: product name, the Close button (only when a host can act on `exit`), and the live region. */
export function Shell({ mode, children }: { mode: LaunchMode; children: ReactNode }) {
  const t = useMessages(messages);
  const emitEvent = useEmitEvent();
  return (
    <div className="cw-app">
      {/* Named, so they stay unique beside the partner page's own header and main (axe landmark-unique). */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: a top-level <header> is a banner landmark, which takes a name; Biome reads it as generic. */}
      <header className="cw-topbar" aria-label={t.bannerLabel}>
        <span className="cw-topbar__title">{t.product}</span>
        {mode === 'standalone' ? null : (
          <Button variant="ghost" size="sm" aria-label={t.closeLabel} onClick={() => emitEvent({ name: 'exit', data: {} })}>
            <span aria-hidden="true">✕</span> {t.close}
          </Button>
        )}
      </header>
      <main className="cw-stack" aria-label={t.mainLabel}>
        {children}
      </main>
      <LiveAnnouncer />
    </div>
  );
}

/**
 * Before the frame knows which screen comes: the dashboard's shape (most visits are a returning customer's),
 * stretched to the frame's height (see base.css), which the loader made about the first screen's. The frame
 * then reports that same height, so the partner's page stays still until real content replaces this.
 */
export function LoadingScreen() {
  const t = useMessages(messages);
  return (
    <LoadingRegion label={t.loading} className="cw-boot">
      <Skeleton width="45%" height="calc(var(--cw-font-size-xl) * 1.25)" />
      <Skeleton width="75%" height={21} />
      <Skeleton height={44} />
      <ScoreSkeleton />
    </LoadingRegion>
  );
}
