import type { WidgetLocale } from '@credit/contract/widget-protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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

/** Decides the screen from the user's enrolment status, and moves on after each step. */
function UserFlow() {
  const { api, session, screens } = useWidgetServices();
  const queryClient = useQueryClient();
  // The session exchange already said whether the token's user has enrolled. Asking `GET /v1/me` first would
  // answer 403 USER_NOT_ENROLLED, which the browser logs as an error although it is every new customer's start.
  const [enrolled, setEnrolled] = useState(() => Boolean(session.current()?.userId));
  const me = useQuery({ ...meQuery(api), enabled: enrolled });
  // Still possible: the user was deleted while the session lived.
  const notEnrolled = !enrolled || (me.isError && widgetErrorCode(me.error) === 'USER_NOT_ENROLLED');
  const screen = notEnrolled
    ? 'enroll'
    : me.data
      ? me.data.status === 'active'
        ? 'dashboard'
        : 'verify'
      : me.isError
        ? 'error'
        : 'loading';

  useEffect(() => {
    if (screen === 'enroll' || screen === 'verify') screens.report(screen);
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
  if (screen === 'verify') {
    return <VerifyFlow userId={me.data.userId} initiallyLocked={me.data.status === 'locked'} onVerified={refreshMe} />;
  }
  return <Dashboard userId={me.data.userId} />;
}
