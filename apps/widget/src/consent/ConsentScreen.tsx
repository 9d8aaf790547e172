import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { announce } from '../a11y/announcer.tsx';
import { consentQuery, grantConsent } from '../api/consent.ts';
import { LoadingScreen } from '../app/Shell.tsx';
import { useApi, useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { ErrorScreen } from '../errors/ErrorScreen.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Button } from '../ui/Button.tsx';
import { ScreenHeader } from '../ui/ScreenHeader.tsx';
import { ConsentInstruction, useConsentFacts } from './ConsentInstruction.tsx';
import { instructionMessages } from './instruction-messages.ts';
import { type ConsentReason, screenMessages } from './screen-messages.ts';
import './consent.css';

export interface ConsentScreenProps {
  userId: string;
  /** Why consent is needed, from the user's `monitoring.pausedReason`. */
  reason: ConsentReason;
  /** The customer withdrew on the screen before this one: say it is done. */
  justWithdrawn: boolean;
}

/**
 * Shown instead of any credit data while the customer has no current consent: monitoring stopped (withdrawn),
 * the consent ran out, or new terms need agreeing to. Says what that means and asks again, with the same
 * instruction and checkbox as the enrolment. Agreeing records the consent and brings the dashboard back.
 */
export default function ConsentScreen({ userId, reason, justWithdrawn }: ConsentScreenProps) {
  const t = useMessages(screenMessages);
  const instruction = useMessages(instructionMessages);
  const { formatDate } = useI18n();
  const api = useApi();
  const emitEvent = useEmitEvent();
  const queryClient = useQueryClient();
  const state = useQuery(consentQuery(api, userId));
  const facts = useConsentFacts();
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const checkboxRef = useRef<HTMLInputElement>(null);

  const grant = useMutation({
    mutationFn: (termsVersion: string) => grantConsent(api, userId, termsVersion),
    onSuccess: async (granted) => {
      emitEvent({ name: 'consent_given', data: { userId, termsVersion: granted.current?.termsVersion ?? '' } });
      announce(t.given);
      // Everything the widget showed before may have moved on while nothing was pulled: read it all again.
      await queryClient.invalidateQueries();
    },
  });

  if (state.isPending || !facts) return <LoadingScreen />;
  if (state.isError) return <ErrorScreen error={state.error} onRetry={() => state.refetch()} />;

  const { history, terms } = state.data;
  const last = history[0];
  const day = (iso: string | null | undefined) => (iso ? formatDate(iso, { dateStyle: 'long' }) : null);
  // The server's current version decides what is agreed to; the session's facts say how long and who.
  const shownFacts = { ...facts, termsVersion: terms.currentVersion };

  let status: string;
  if (reason === 'consent_withdrawn') {
    const when = day(last?.withdrawnAt) ?? '';
    status = justWithdrawn ? t.withdrawnNow(when) : t.withdrawnOn(when);
  } else if (reason === 'consent_expired') {
    status = t.expired(day(last?.acceptedAt), day(last?.expiresAt));
  } else {
    status = t.newTerms(terms.currentVersion);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (grant.isPending) return;
    if (!agreed) {
      setError(instruction.mustAgree);
      announce(instruction.mustAgree);
      checkboxRef.current?.focus();
      return;
    }
    setError(undefined);
    grant.mutate(terms.currentVersion);
  };

  return (
    <div className="cw-consent-screen">
      <ScreenHeader title={t.title[reason]} focusOnMount />
      <p className="cw-consent-screen__status" role={justWithdrawn ? 'status' : undefined}>
        {status} {t.paused}
      </p>
      {reason === 'consent_withdrawn' ? <p>{t.dataKept(facts.partnerName)}</p> : null}
      <p>{t.howToRestart}</p>
      <form className="cw-consent-screen" noValidate onSubmit={submit}>
        <ConsentInstruction
          ref={checkboxRef}
          facts={shownFacts}
          agreed={agreed}
          onAgreedChange={(value) => {
            setAgreed(value);
            if (value) setError(undefined);
          }}
          error={error}
        />
        {grant.isError ? (
          <p className="cw-field__error" role="alert">
            {t.failed}
          </p>
        ) : null}
        <Button type="submit" loading={grant.isPending} fullWidth>
          {grant.isPending ? t.submitting : t.submit[reason]}
        </Button>
      </form>
    </div>
  );
}
