import type { TUser } from '@credit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { announce } from '../a11y/announcer.tsx';
import { withdrawConsent } from '../api/consent.ts';
import { meKey } from '../api/me.ts';
import { useApi, useEmitEvent, useWidgetServices } from '../app/WidgetServicesProvider.tsx';
import { useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { screenMessages } from './screen-messages.ts';
import './consent.css';

export interface WithdrawScreenProps {
  userId: string;
  /** Withdrawn: the flow shows the stopped screen, which confirms it. */
  onWithdrawn: () => Promise<unknown> | undefined;
  onCancel: () => void;
}

/**
 * Withdrawing consent: one screen, one button. No harder than agreeing was (a checkbox and a button), and the
 * next screen confirms it is done and how to turn monitoring back on.
 */
export default function WithdrawScreen({ userId, onWithdrawn, onCancel }: WithdrawScreenProps) {
  const t = useMessages(screenMessages);
  const api = useApi();
  const { session } = useWidgetServices();
  const emitEvent = useEmitEvent();
  const queryClient = useQueryClient();
  const partnerName = session.current()?.consentTerms.partnerName ?? '';

  const withdraw = useMutation({
    mutationFn: () => withdrawConsent(api, userId),
    onSuccess: async () => {
      emitEvent({ name: 'consent_withdrawn', data: { userId } });
      // At once, before the user record comes back: monitoring is paused, so the flow shows the stopped screen.
      queryClient.setQueryData<TUser>(
        meKey,
        (user) => user && { ...user, monitoring: { ...user.monitoring, status: 'paused', pausedReason: 'consent_withdrawn' } },
      );
      // Nothing pulled under the old consent stays in memory; the stopped screen reads what it needs afresh.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meKey[0] });
      await onWithdrawn();
    },
    onError: () => announce(t.withdrawFailed),
  });

  return (
    <div className="cw-consent-screen">
      <ScreenHeader title={t.withdrawTitle} focusOnMount />
      <p>{t.withdrawIntro}</p>
      <ul className="cw-consent-screen__list">
        {t.withdrawEffects(partnerName).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {withdraw.isError ? (
        <p className="cw-field__error" role="alert">
          {t.withdrawFailed}
        </p>
      ) : null}
      <div className="cw-consent-screen__actions">
        <Button loading={withdraw.isPending} fullWidth onClick={() => withdraw.mutate()}>
          {withdraw.isPending ? t.withdrawing : t.withdraw}
        </Button>
        <Button variant="secondary" fullWidth disabled={withdraw.isPending} onClick={onCancel}>
          {t.keep}
        </Button>
      </div>
    </div>
  );
}
