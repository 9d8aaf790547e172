import type { TAlert, TConsentState, TUser } from '@credit/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { maskEmail, maskName } from '../format.ts';
import { useFormat, useMessages } from '../i18n.tsx';
import { stateMessages } from '../messages.ts';
import { hrefWith, navigate } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { describeError, ErrorState, Loading } from '../ui/States.tsx';
import { customersMessages } from './customers-messages.ts';

const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

/** Finds a customer by the bank's own id; the address then names them by our `usr_…` id, never by the bank's. */
const Search = () => {
  const { api } = useConsole();
  const t = useMessages(customersMessages);
  const states = useMessages(stateMessages);
  const [externalUserId, setExternalUserId] = useState('');
  const problemId = useId();
  const search = useMutation({
    mutationFn: async (id: string) => (await api.call('listUsers', { query: { externalUserId: id, limit: 1 } })).data[0],
    onSuccess: (user) => {
      if (user) navigate(hrefWith('/console/customers', { user: user.userId }));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = externalUserId.trim();
    if (id) search.mutate(id);
  };
  const notFound = search.isSuccess && !search.data;
  return (
    <form className="filters" onSubmit={submit} aria-label={t.findLabel}>
      <label>
        {t.yourCustomerId}
        <input
          value={externalUserId}
          onChange={(e) => setExternalUserId(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          aria-describedby={notFound || search.isError ? problemId : undefined}
        />
      </label>
      <button type="submit" className="button" disabled={search.isPending}>
        {t.find}
      </button>
      {search.isPending ? <p role="status">{t.searching}</p> : null}
      {notFound ? (
        <p id={problemId} className="field-problem" role="alert">
          {t.notFound}
        </p>
      ) : null}
      {search.isError ? (
        <p id={problemId} className="field-problem" role="alert">
          {describeError(search.error, states).title}: {describeError(search.error, states).advice}
        </p>
      ) : null}
    </form>
  );
};

const Profile = ({ user }: { user: TUser }) => {
  const t = useMessages(customersMessages);
  const f = useFormat();
  return (
    <section className="card" aria-labelledby="customer-profile">
      <h2 id="customer-profile">{t.customer}</h2>
      <dl className="facts">
        <div>
          <dt>{t.name}</dt>
          <dd>
            {maskName(user.firstName)} {maskName(user.lastName)}
          </dd>
        </div>
        <div>
          <dt>{t.email}</dt>
          <dd>{maskEmail(user.email)}</dd>
        </div>
        <div>
          <dt>{t.yourId}</dt>
          <dd>{user.externalUserId}</dd>
        </div>
        <div>
          <dt>{t.ourId}</dt>
          <dd>{user.userId}</dd>
        </div>
        <div>
          <dt>{t.status}</dt>
          <dd>{t.statuses[user.status]}</dd>
        </div>
        <div>
          <dt>{t.enrolled}</dt>
          <dd>{f.instant(user.enrolledAt)}</dd>
        </div>
      </dl>
      <h3>{t.monitoring}</h3>
      <dl className="facts">
        <div>
          <dt>{t.state}</dt>
          <dd>
            {t.monitoringStates[user.monitoring.status]}
            {user.monitoring.pausedReason ? ` (${t.pausedReasons[user.monitoring.pausedReason]})` : ''}
          </dd>
        </div>
        <div>
          <dt>{t.lastRefreshed}</dt>
          <dd>{f.instant(user.monitoring.lastRefreshedAt)}</dd>
        </div>
        <div>
          <dt>{t.nextRefresh}</dt>
          <dd>{f.instant(user.monitoring.nextRefreshAt)}</dd>
        </div>
      </dl>
    </section>
  );
};

const Consent = ({ consent }: { consent: TConsentState }) => {
  const t = useMessages(customersMessages);
  const f = useFormat();
  return (
    <section className="card" aria-labelledby="customer-consent">
      <h2 id="customer-consent">{t.consent}</h2>
      <p>{consent.current ? t.inForce(consent.current.termsVersion, f.instant(consent.current.expiresAt)) : t.noneInForce}</p>
      {consent.history.length ? (
        <ScrollRegion labelledBy="consent-history-caption">
          <table className="data-table">
            <caption id="consent-history-caption">{t.consentCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.terms}</th>
                <th scope="col">{t.how}</th>
                <th scope="col">{t.accepted}</th>
                <th scope="col">{t.withdrawn}</th>
              </tr>
            </thead>
            <tbody>
              {consent.history.map((record) => (
                <tr key={record.consentId}>
                  <th scope="row">{t.consentStatuses[record.status]}</th>
                  <td>{record.termsVersion}</td>
                  <td>{t.methods[record.method]}</td>
                  <td>{f.instant(record.acceptedAt)}</td>
                  <td>{f.instant(record.withdrawnAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </section>
  );
};

const Alerts = ({ alerts }: { alerts: TAlert[] }) => {
  const t = useMessages(customersMessages);
  const f = useFormat();
  return (
    <section className="card" aria-labelledby="customer-alerts">
      <h2 id="customer-alerts">{t.alerts}</h2>
      {alerts.length === 0 ? (
        <p>{t.noAlert}</p>
      ) : (
        <ScrollRegion labelledBy="customer-alerts-caption">
          <table className="data-table">
            <caption id="customer-alerts-caption">{t.alertsCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.alert}</th>
                <th scope="col">{t.severity}</th>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.read}</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((alert) => (
                <tr key={alert.alertId}>
                  <th scope="row">{t.alertTypes[alert.type]}</th>
                  <td>{t.severities[alert.severity]}</td>
                  <td>{f.instant(alert.createdAt)}</td>
                  <td>{alert.status === 'read' ? t.yes : t.no}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
};

const CustomerFile = ({ userId }: { userId: string }) => {
  const { api } = useConsole();
  const t = useMessages(customersMessages);
  const user = useQuery({ queryKey: ['getUser', userId], queryFn: () => api.call('getUser', { params: { userId } }) });
  const consent = useQuery({
    queryKey: ['getConsent', userId],
    queryFn: () => api.call('getConsent', { params: { userId } }),
    enabled: user.isSuccess,
  });
  const alerts = useQuery({
    queryKey: ['listAlerts', userId],
    queryFn: () => api.call('listAlerts', { params: { userId }, query: { status: 'all', limit: 20 } }),
    enabled: user.isSuccess,
  });
  if (user.isPending) return <Loading what={t.loadingCustomer} />;
  if (user.isError) return <ErrorState error={user.error} retry={() => void user.refetch()} />;
  return (
    <div className="customer">
      <Profile user={user.data} />
      {consent.isPending ? (
        <Loading what={t.loadingConsent} />
      ) : consent.isError ? (
        <ErrorState error={consent.error} retry={() => void consent.refetch()} />
      ) : (
        <Consent consent={consent.data} />
      )}
      {alerts.isPending ? (
        <Loading what={t.loadingAlerts} />
      ) : alerts.isError ? (
        <ErrorState error={alerts.error} retry={() => void alerts.refetch()} />
      ) : (
        <Alerts alerts={alerts.data.data} />
      )}
    </div>
  );
};

/** One customer at a time, found by the bank's own id: masked, and each look on the bank's audit trail. */
export const CustomersPage = ({ query }: { query: URLSearchParams }) => {
  const t = useMessages(customersMessages);
  const userId = query.get('user') ?? '';
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      <Search />
      {userId && USER_ID.test(userId) ? (
        <CustomerFile key={userId} userId={userId} />
      ) : userId ? (
        <p className="state state-error" role="alert">
          {t.noCustomer}
        </p>
      ) : null}
    </>
  );
};
