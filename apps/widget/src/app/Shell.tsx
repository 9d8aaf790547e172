import type { ReactNode } from 'react';
import { LiveAnnouncer } from '../a11y/announcer.tsx';
import { emitEvent } from '../bridge/events.ts';
import type { LaunchMode } from '../bridge/launch.ts';
import { useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { messages } from './messages.ts';

/** The frame's chrome: product name, the Close button (only when a host can act on `exit`), and the live region. */
export function Shell({ mode, children }: { mode: LaunchMode; children: ReactNode }) {
  const t = useMessages(messages);
  return (
    <div className="cw-app">
      <header className="cw-topbar">
        <span className="cw-topbar__title">{t.product}</span>
        {mode === 'standalone' ? null : (
          <Button variant="ghost" size="sm" aria-label={t.closeLabel} onClick={() => emitEvent({ name: 'exit', data: {} })}>
            <span aria-hidden="true">✕</span> {t.close}
          </Button>
        )}
      </header>
      <main className="cw-stack">{children}</main>
      <LiveAnnouncer />
    </div>
  );
}

export function LoadingScreen() {
  const t = useMessages(messages);
  return (
    <LoadingRegion label={t.loading}>
      <Skeleton width="55%" height={28} />
      <Skeleton shape="circle" width={180} />
      <Skeleton lines={3} />
    </LoadingRegion>
  );
}
