import type { TClientSecretRotation } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { formatInstant } from '../format.ts';
import { useLocale, useMessages } from '../i18n.tsx';
import { useConsole } from '../services.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { ErrorState, Loading } from '../ui/States.tsx';
import { credentialsMessages } from './credentials-messages.ts';

const CREDENTIALS_KEY = ['getClientCredentials'] as const;

/** The overlaps offered, in seconds: the API takes any number up to a week; these are the ones people pick. */
const OVERLAPS = [0, 3600, 86_400, 3 * 86_400, 7 * 86_400] as const;

/** The new secret, this once: copied with a button, or selected in its field. */
const NewSecret = ({ rotation }: { rotation: TClientSecretRotation }) => {
  const t = useMessages(credentialsMessages);
  const { locale } = useLocale();
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
      <h2>{t.newHeading}</h2>
      <p className="warning">
        <strong>{t.notAgain}</strong> {t.storeIt}
      </p>
      <label htmlFor={fieldId}>{t.newLabel}</label>
      <input id={fieldId} readOnly value={rotation.secret} onFocus={(e) => e.target.select()} />
      <button type="button" className="button" onClick={() => void copy()}>
        {t.copy}
      </button>
      {copied === 'yes' ? <p>{t.copied}</p> : null}
      {copied === 'no' ? <p>{t.copyRefused}</p> : null}
      <p>{overlapped ? t.stillValid(formatInstant(rotation.previousSecretExpiresAt, locale)) : t.stopped}</p>
    </div>
  );
};

const Rotate = () => {
  const { api } = useConsole();
  const t = useMessages(credentialsMessages);
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
  return (
    <section className="card" aria-labelledby="rotate-heading">
      <h2 id="rotate-heading">{t.rotateHeading}</h2>
      <p>{t.rotateIntro}</p>
      <form
        className="action"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setConfirming(true);
        }}
      >
        <label htmlFor={overlapId}>{t.overlapLabel}</label>
        <select id={overlapId} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))} disabled={confirming}>
          {OVERLAPS.map((seconds) => (
            <option key={seconds} value={seconds}>
              {t.overlaps[seconds]}
            </option>
          ))}
        </select>
        {confirming ? (
          <>
            <p>{overlap === 0 ? t.confirmNow : t.confirmOverlap(t.overlaps[overlap] ?? `${overlap} s`)}</p>
            <div className="card-head">
              <button type="button" className="button button-danger" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                {t.rotateNow}
              </button>
              <button type="button" className="button button-quiet" onClick={() => setConfirming(false)}>
                {t.cancel}
              </button>
            </div>
          </>
        ) : (
          <button type="submit" className="button" disabled={rotate.isPending}>
            {t.rotate}
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
  const t = useMessages(credentialsMessages);
  const { locale } = useLocale();
  const credentials = useQuery({ queryKey: CREDENTIALS_KEY, queryFn: () => api.call('getClientCredentials', {}) });
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      {credentials.isPending ? (
        <Loading what={t.loading} />
      ) : credentials.isError ? (
        <ErrorState error={credentials.error} retry={() => void credentials.refetch()} />
      ) : (
        <section className="card" aria-labelledby="state-heading">
          <h2 id="state-heading">{t.client}</h2>
          <dl className="facts">
            <div>
              <dt>{t.clientId}</dt>
              <dd className="mono">{credentials.data.clientId}</dd>
            </div>
            <div>
              <dt>{t.created}</dt>
              <dd>{formatInstant(credentials.data.secretCreatedAt, locale)}</dd>
            </div>
            <div>
              <dt>{t.previous}</dt>
              <dd>
                {credentials.data.previousSecret
                  ? t.validUntil(formatInstant(credentials.data.previousSecret.expiresAt, locale))
                  : t.noneValid}
              </dd>
            </div>
          </dl>
        </section>
      )}
      {may('rotateClientSecret') ? <Rotate /> : <p className="muted">{t.viewerOnly}</p>}
    </>
  );
};
