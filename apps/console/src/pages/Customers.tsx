import type { TAlert, TConsentState, TUser } from '@credit/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { formatInstant, maskEmail, maskName } from '../format.ts';
import { hrefWith, navigate } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { describeError, ErrorState, Loading } from '../ui/States.tsx';

const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

const PAUSED_REASONS: Record<NonNullable<TUser['monitoring']['pausedReason']>, string> = {
  consent_required: 'no current consent: never given, or new terms need it',
  consent_withdrawn: 'the customer withdrew consent',
  consent_expired: 'the consent expired',
  not_verified: 'identity not verified yet',
  verification_locked: 'identity verification is locked',
  credit_frozen: 'the file is frozen at the bureau',
};

/** Finds a customer by the bank's own id; the address then names them by our `usr_…` id, never by the bank's. */
const Search = () => {
  const { api } = useConsole();
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
    <form className="filters" onSubmit={submit} aria-label="Find a customer">
      <label>
        Your customer id
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
        Find
      </button>
      {search.isPending ? <p role="status">Searching…</p> : null}
      {notFound ? (
        <p id={problemId} className="field-problem" role="alert">
          No customer is enrolled under that id. Check it against your own records (ids are matched exactly).
        </p>
      ) : null}
      {search.isError ? (
        <p id={problemId} className="field-problem" role="alert">
          {describeError(search.error).title}: {describeError(search.error).advice}
        </p>
      ) : null}
    </form>
  );
};

const Profile = ({ user }: { user: TUser }) => (
  <section className="card" aria-labelledby="customer-profile">
    <h2 id="customer-profile">Customer</h2>
    <dl className="facts">
      <div>
        <dt>Name</dt>
        <dd>
          {maskName(user.firstName)} {maskName(user.lastName)}
        </dd>
      </div>
      <div>
        <dt>E-mail</dt>
        <dd>{maskEmail(user.email)}</dd>
      </div>
      <div>
        <dt>Your id</dt>
        <dd>{user.externalUserId}</dd>
      </div>
      <div>
        <dt>Our id</dt>
        <dd>{user.userId}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>{user.status.replace('_', ' ')}</dd>
      </div>
      <div>
        <dt>Enrolled</dt>
        <dd>{formatInstant(user.enrolledAt)}</dd>
      </div>
    </dl>
    <h3>Monitoring</h3>
    <dl className="facts">
      <div>
        <dt>State</dt>
        <dd>
          {user.monitoring.status}
          {user.monitoring.pausedReason ? ` (${PAUSED_REASONS[user.monitoring.pausedReason]})` : ''}
        </dd>
      </div>
      <div>
        <dt>Last refreshed</dt>
        <dd>{formatInstant(user.monitoring.lastRefreshedAt)}</dd>
      </div>
      <div>
        <dt>Next refresh</dt>
        <dd>{formatInstant(user.monitoring.nextRefreshAt)}</dd>
      </div>
    </dl>
  </section>
);

const Consent = ({ consent }: { consent: TConsentState }) => (
  <section className="card" aria-labelledby="customer-consent">
    <h2 id="customer-consent">Consent</h2>
    <p>
      {consent.current
        ? `In force under terms ${consent.current.termsVersion}, until ${formatInstant(consent.current.expiresAt)}.`
        : 'None in force: nothing is pulled until the customer consents again.'}
    </p>
    {consent.history.length ? (
      <ScrollRegion labelledBy="consent-history-caption">
        <table className="data-table">
          <caption id="consent-history-caption">Consent history, most recent first</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Terms</th>
              <th scope="col">How</th>
              <th scope="col">Accepted</th>
              <th scope="col">Withdrawn</th>
            </tr>
          </thead>
          <tbody>
            {consent.history.map((record) => (
              <tr key={record.consentId}>
                <th scope="row">{record.status}</th>
                <td>{record.termsVersion}</td>
                <td>{record.method.replace(/_/g, ' ')}</td>
                <td>{formatInstant(record.acceptedAt)}</td>
                <td>{formatInstant(record.withdrawnAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    ) : null}
  </section>
);

const Alerts = ({ alerts }: { alerts: TAlert[] }) => (
  <section className="card" aria-labelledby="customer-alerts">
    <h2 id="customer-alerts">Alerts</h2>
    {alerts.length === 0 ? (
      <p>No alert yet.</p>
    ) : (
      <ScrollRegion labelledBy="customer-alerts-caption">
        <table className="data-table">
          <caption id="customer-alerts-caption">The 20 most recent alerts</caption>
          <thead>
            <tr>
              <th scope="col">Alert</th>
              <th scope="col">Severity</th>
              <th scope="col">When</th>
              <th scope="col">Read</th>
            </tr>
          </thead>
          <tbody>
            {alerts.map((alert) => (
              <tr key={alert.alertId}>
                <th scope="row">{alert.type.replace(/_/g, ' ')}</th>
                <td>{alert.severity}</td>
                <td>{formatInstant(alert.createdAt)}</td>
                <td>{alert.status === 'read' ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    )}
  </section>
);

const CustomerFile = ({ userId }: { userId: string }) => {
  const { api } = useConsole();
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
  if (user.isPending) return <Loading what="the customer" />;
  if (user.isError) return <ErrorState error={user.error} retry={() => void user.refetch()} />;
  return (
    <div className="customer">
      <Profile user={user.data} />
      {consent.isPending ? (
        <Loading what="the consent" />
      ) : consent.isError ? (
        <ErrorState error={consent.error} retry={() => void consent.refetch()} />
      ) : (
        <Consent consent={consent.data} />
      )}
      {alerts.isPending ? (
        <Loading what="the alerts" />
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
  const userId = query.get('user') ?? '';
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>Customers</h1>
        <p className="lede">
          Find a customer by your own id. Names and e-mail addresses are masked, and each look is recorded on your audit trail
          under your staff id.
        </p>
      </div>
      <Search />
      {userId && USER_ID.test(userId) ? (
        <CustomerFile key={userId} userId={userId} />
      ) : userId ? (
        <p className="state state-error" role="alert">
          The address names no customer. Search by your customer id above.
        </p>
      ) : null}
    </>
  );
};
