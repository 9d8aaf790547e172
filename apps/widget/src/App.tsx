import type { WidgetLocale } from '@credit/contract/widget-protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { meKey, meQuery } from './api/me.ts';
import { LoadingScreen, Shell } from './app/Shell.tsx';
import { useWidgetServices } from './app/WidgetServicesProvider.tsx';
import type { LaunchSettings } from './bridge/launch.ts';
import { Dashboard } from './dashboard/Dashboard.tsx';
import { EnrollForm } from './enroll/EnrollForm.tsx';
import { ErrorScreen, type WidgetError, widgetErrorCode } from './errors/index.ts';
import { detectLocale, I18nProvider } from './i18n/index.ts';
import { applyTheme } from './theme/apply-theme.ts';
import { VerifyFlow } from './verify/VerifyFlow.tsx';

// Most visits need neither: loaded when a customer without consent comes back, or presses "Stop credit monitoring".
const ConsentScreen = lazy(() => import('./consent/screens.ts').then((screens) => ({ default: screens.ConsentScreen })));
const WithdrawScreen = lazy(() => import('./consent/screens.ts').then((screens) => ({ default: screens.WithdrawScreen })));

/** The user's monitoring is paused for want of consent: no credit data until they consent again. */
const CONSENT_REASONS = ['consent_withdrawn', 'consent_expired', 'consent_required'] as const;
type ConsentReason = (typeof CONSENT_REASONS)[number];
const consentReasonOf = (pausedReason: string | null | undefined): ConsentReason | null =>
  (CONSENT_REASONS as readonly (string | null | undefined)[]).includes(pausedReason) ? (pausedReason as ConsentReason) : null;

type BootState = { status: 'connecting' } | { status: 'ready' } | { status: 'failed'; error: unknown };

/** connecting → (me) → enrol | verify | locked | dashboard, with an error screen wherever it stops. */
export function App() {
  const { launch, boots, refresher, screens } = useWidgetServices();
  const [locale, setLocale] = useState<WidgetLocale>(launch.fragmentSettings.locale ?? detectLocale());
  const [state, setState] = useState<BootState>({ status: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const [expired, setExpired] = useState<WidgetError | null>(null);

  useEffect(() => refresher.onExpired(setExpired), [refresher]);
  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = locale === 'es' ? 'Puntaje de crédito' : 'Credit score';
  }, [locale]);

  useEffect(() => {
    let cancelled = false;
    const applySettings = (settings: LaunchSettings) => {
      applyTheme(settings.theme);
      if (settings.locale) setLocale(settings.locale);
      screens.setInitialView(settings.view);
    };
    boots.run(attempt, applySettings).then(
      () => !cancelled && setState({ status: 'ready' }),
      (error: unknown) => !cancelled && setState({ status: 'failed', error }),
    );
    return () => {
      cancelled = true;
    };
  }, [attempt, boots, screens]);

  const retryBoot = () => {
    refresher.clearExpired();
    setExpired(null);
    setState({ status: 'connecting' });
    setAttempt((n) => n + 1);
  };

  let content: React.ReactNode;
  if (expired) content = <ErrorScreen error={expired} />;
  else if (state.status === 'connecting') content = <LoadingScreen />;
  else if (state.status === 'failed') content = <ErrorScreen error={state.error} onRetry={retryBoot} />;
  else content = <UserFlow />;

  return (
    <I18nProvider locale={locale}>
      <Shell mode={launch.mode}>{content}</Shell>
    </I18nProvider>
  );
}

/**
 * Decides the screen from the user's enrolment status, and moves on after each step. A user without current
 * consent sees the consent screen before anything else, verification included: every pull needs it.
 */
function UserFlow() {
  const { api, session, screens } = useWidgetServices();
  const queryClient = useQueryClient();
  // The session exchange already said whether the token's user has enrolled. Asking `GET /v1/me` first would
  // answer 403 USER_NOT_ENROLLED, which the browser logs as an error although it is every new customer's start.
  const [enrolled, setEnrolled] = useState(() => Boolean(session.current()?.userId));
  const me = useQuery({ ...meQuery(api), enabled: enrolled });
  // Still possible: the user was deleted while the session lived.
  const notEnrolled = !enrolled || (me.isError && widgetErrorCode(me.error) === 'USER_NOT_ENROLLED');
  const consentReason = consentReasonOf(me.data?.monitoring.pausedReason);
  /** The customer pressed "Stop credit monitoring", or has just withdrawn (the stopped screen then confirms it). */
  const [withdrawal, setWithdrawal] = useState<'asking' | 'done' | null>(null);
  const screen = notEnrolled
    ? 'enroll'
    : me.data
      ? consentReason
        ? 'consent'
        : withdrawal === 'asking'
          ? 'withdraw'
          : me.data.status === 'active'
            ? 'dashboard'
            : 'verify'
      : me.isError
        ? 'error'
        : 'loading';

  useEffect(() => {
    if (screen === 'enroll' || screen === 'verify' || screen === 'consent' || screen === 'withdraw') screens.report(screen);
    else if (screen === 'dashboard') screens.report(screens.dashboardView());
  }, [screen, screens]);

  const refreshMe = () => queryClient.invalidateQueries({ queryKey: meKey });

  if (screen === 'loading') return <LoadingScreen />;
  if (screen === 'enroll') {
    return (
      <EnrollForm
        onEnrolled={async (userId) => {
          if (userId) session.rememberUserId(userId);
          setEnrolled(true);
          await refreshMe();
        }}
      />
    );
  }
  if (screen === 'error' || !me.data) return <ErrorScreen error={me.error} onRetry={() => me.refetch()} />;
  const { userId } = me.data;
  if (screen === 'consent' && consentReason) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <ConsentScreen userId={userId} reason={consentReason} justWithdrawn={withdrawal === 'done'} />
      </Suspense>
    );
  }
  if (screen === 'withdraw') {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <WithdrawScreen
          userId={userId}
          onWithdrawn={() => {
            setWithdrawal('done');
            return refreshMe();
          }}
          onCancel={() => setWithdrawal(null)}
        />
      </Suspense>
    );
  }
  if (screen === 'verify') {
    return <VerifyFlow userId={me.data.userId} initiallyLocked={me.data.status === 'locked'} onVerified={refreshMe} />;
  }
  return <Dashboard userId={userId} onStopMonitoring={() => setWithdrawal('asking')} />;
}
