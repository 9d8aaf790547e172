import type { TClientSecretRotation } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { formatInstant } from '../format.ts';
import { useConsole } from '../services.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';

const CREDENTIALS_KEY = ['getClientCredentials'] as const;

/** The overlaps offered: the API takes any number of seconds up to a week; these are the ones people pick. */
const OVERLAPS = [
  { seconds: 0, label: 'None: the current secret stops now, with every token and other console session' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 3 * 86_400, label: '3 days' },
  { seconds: 7 * 86_400, label: '7 days' },
] as const;

/** The new secret, this once: copied with a button, or selected in its field. */
const NewSecret = ({ rotation }: { rotation: TClientSecretRotation }) => {
  const fieldId = useId();
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>(undefined);
  const copy = () =>
    navigator.clipboard.writeText(rotation.secret).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  const overlapped = Date.parse(rotation.previousSecretExpiresAt) > Date.parse(rotation.secretCreatedAt);
  return (
    <div className="secret card" role="status">
      <h2>Your new client secret</h2>
      <p className="warning">
        <strong>It will not be shown again.</strong> Copy it into your server’s secret store now: we keep only its hash.
      </p>
      <label htmlFor={fieldId}>New client secret</label>
      <input id={fieldId} readOnly value={rotation.secret} onFocus={(e) => e.target.select()} />
      <button type="button" className="button" onClick={() => void copy()}>
        Copy the secret
      </button>
      {copied === 'yes' ? <p>Copied.</p> : null}
      {copied === 'no' ? <p>This browser did not allow copying: select the field and copy it yourself.</p> : null}
      <p>
        {overlapped
          ? `The previous secret still mints tokens until ${formatInstant(rotation.previousSecretExpiresAt)}: deploy the new one before then.`
          : 'The previous secret has stopped: tokens minted with it and other console sessions have ended.'}
      </p>
    </div>
  );
};

const Rotate = () => {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const overlapId = useId();
  const [overlap, setOverlap] = useState<number>(86_400);
  const [confirming, setConfirming] = useState(false);
  const rotate = useMutation({
    mutationFn: () => api.call('rotateClientSecret', { body: { overlapSeconds: overlap } }),
    onSettled: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: CREDENTIALS_KEY });
    },
  });
  const chosen = OVERLAPS.find((o) => o.seconds === overlap);
  return (
    <section className="card" aria-labelledby="rotate-heading">
      <h2 id="rotate-heading">Rotate the client secret</h2>
      <p>
        A new secret, shown once. During the overlap both secrets mint tokens, so your servers move to the new one without an
        outage; tokens and console sessions already open keep working.
      </p>
      <form
        className="action"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setConfirming(true);
        }}
      >
        <label htmlFor={overlapId}>Overlap: how long the current secret keeps working</label>
        <select id={overlapId} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))} disabled={confirming}>
          {OVERLAPS.map((o) => (
            <option key={o.seconds} value={o.seconds}>
              {o.label}
            </option>
          ))}
        </select>
        {confirming ? (
          <>
            <p>
              {overlap === 0
                ? 'The current secret stops now: every token minted with it and every other console session ends.'
                : `The current secret keeps working for ${chosen?.label ?? `${overlap} seconds`}, then stops.`}
            </p>
            <div className="card-head">
              <button type="button" className="button button-danger" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                Rotate now
              </button>
              <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </>
        ) : (
          <button type="submit" className="button" disabled={rotate.isPending}>
            Rotate secret
          </button>
        )}
        <Outcome mutation={rotate} success={undefined} />
      </form>
      {rotate.data ? <NewSecret rotation={rotate.data} /> : null}
    </section>
  );
};

/** The bank's client id and the state of its secret; an editor rotates it with the overlap they choose. */
export const CredentialsPage = () => {
  const { api, may } = useConsole();
  const credentials = useQuery({ queryKey: CREDENTIALS_KEY, queryFn: () => api.call('getClientCredentials', {}) });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>Credentials</h1>
        <p className="lede">Your API client: its id, and its secret’s age. Secrets are never shown after they are made.</p>
      </div>
      {credentials.isPending ? (
        <Loading what="the credentials" />
      ) : credentials.isError ? (
        <ErrorState error={credentials.error} retry={() => void credentials.refetch()} />
      ) : (
        <section className="card" aria-labelledby="state-heading">
          <h2 id="state-heading">Client</h2>
          <dl className="facts">
            <div>
              <dt>Client id</dt>
              <dd className="mono">{credentials.data.clientId}</dd>
            </div>
            <div>
              <dt>Current secret created</dt>
              <dd>{formatInstant(credentials.data.secretCreatedAt)}</dd>
            </div>
            <div>
              <dt>Previous secret</dt>
              <dd>
                {credentials.data.previousSecret
                  ? `Valid until ${formatInstant(credentials.data.previousSecret.expiresAt)}`
                  : 'None valid'}
              </dd>
            </div>
          </dl>
        </section>
      )}
      {may('rotateClientSecret') ? <Rotate /> : <p className="muted">Your role is viewer: an editor rotates the secret.</p>}
    </>
  );
};
