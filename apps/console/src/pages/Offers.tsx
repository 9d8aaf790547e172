import type { TAudiencePreviewInput, TCreateOfferInput, TOffer, TOfferType } from '@credit/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useFormat, useMessages } from '../i18n.tsx';
import { stateMessages } from '../messages.ts';
import { hrefWith, Link, navigate } from '../router.tsx';
import { useConsole } from '../services.tsx';
import { type FilterField, FilterForm } from '../ui/FilterForm.tsx';
import { Outcome } from '../ui/Outcome.tsx';
import { Pager } from '../ui/Pager.tsx';
import { ScrollRegion } from '../ui/ScrollRegion.tsx';
import { describeError, ErrorState, Loading } from '../ui/States.tsx';
import { offersMessages } from './offers-messages.ts';

type OffersMessages = (typeof offersMessages)['en'];

const PATH = '/console/offers';
const OFFER_ID = /^off_[A-Za-z0-9]{1,40}$/;
const TYPES = ['credit_card', 'loan', 'mortgage'] as const;
const STATUSES = ['active', 'draft', 'paused', 'expired', 'archived', 'all'] as const;
const PAGE_SIZE = 25;

/** The catalogue's filters as the address holds them; anything unknown falls back to the API's default. */
const filtersOf = (query: URLSearchParams) => {
  const status = (STATUSES as readonly string[]).includes(query.get('status') ?? '')
    ? (query.get('status') as (typeof STATUSES)[number])
    : 'active';
  const type = (TYPES as readonly string[]).includes(query.get('type') ?? '') ? (query.get('type') as TOfferType) : undefined;
  return { status, type, cursor: query.get('cursor') ?? undefined };
};

/** An empty status is the API's default, `active`: the select names it so. */
const filterFields = (t: OffersMessages): FilterField[] => [
  {
    name: 'status',
    label: t.status,
    kind: 'select',
    options: STATUSES.filter((s) => s !== 'active'),
    any: t.statuses.active,
    optionLabels: t.statuses,
  },
  { name: 'type', label: t.type, kind: 'select', options: TYPES, optionLabels: t.types },
];

const aprRange = (offer: TOffer) =>
  offer.apr.min === offer.apr.max ? `${offer.apr.min}%` : `${offer.apr.min}% – ${offer.apr.max}%`;

const Catalogue = ({ query }: { query: URLSearchParams }) => {
  const { api, may } = useConsole();
  const t = useMessages(offersMessages);
  const f = useFormat();
  const filters = filtersOf(query);
  const list = useQuery({
    queryKey: ['listOffers', filters],
    queryFn: () =>
      api.call('listOffers', {
        query: {
          status: filters.status,
          limit: PAGE_SIZE,
          ...(filters.type ? { type: filters.type } : {}),
          ...(filters.cursor ? { cursor: filters.cursor } : {}),
        },
      }),
  });
  return (
    <>
      <div className="toolbar">
        <FilterForm key={query.toString()} path={PATH} query={query} fields={filterFields(t)} label={t.filterLabel} />
        {may('createOffer') ? (
          <Link className="button" href={hrefWith(PATH, { offer: 'new' })}>
            {t.newOffer}
          </Link>
        ) : null}
      </div>
      {list.isPending ? (
        <Loading what={t.loading} />
      ) : list.isError ? (
        <>
          <ErrorState error={list.error} retry={() => void list.refetch()} />
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : list.data.data.length === 0 ? (
        <>
          <p>{t.none}</p>
          <Pager path={PATH} query={query} nextCursor={null} label={t.pagesLabel} />
        </>
      ) : (
        <>
          <ScrollRegion labelledBy="offers-caption">
            <table className="data-table">
              <caption id="offers-caption">{t.caption(t.statuses[filters.status])}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.offer}</th>
                  <th scope="col">{t.type}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.apr}</th>
                  <th scope="col" className="number">
                    {t.version}
                  </th>
                  <th scope="col">{t.changed}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((offer) => (
                  <tr key={offer.offerId}>
                    <th scope="row">
                      <Link href={hrefWith(PATH, { offer: offer.offerId })}>{offer.name}</Link>
                    </th>
                    <td>{t.types[offer.type]}</td>
                    <td>{t.statuses[offer.status]}</td>
                    <td>{aprRange(offer)}</td>
                    <td className="number">{offer.version}</td>
                    <td>{f.instant(offer.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager path={PATH} query={query} nextCursor={list.data.pagination.nextCursor} label={t.pagesLabel} />
        </>
      )}
    </>
  );
};

// ----- The offer form -----

interface TierDraft {
  minScore: string;
  maxScore: string;
  apr: string;
  limitMin: string;
  limitMax: string;
}

/** The rules the form shows, with the range each takes (`months`: any whole number of them). */
const RULE_FIELDS = [
  { key: 'minScore', hint: '300–850' },
  { key: 'maxScore', hint: '300–850' },
  { key: 'maxUtilization', hint: '0–100' },
  { key: 'minFileAgeMonths', hint: 'months' },
  { key: 'noDelinquencyMonths', hint: '1–120' },
] as const;
type RuleKey = (typeof RULE_FIELDS)[number]['key'];

interface Draft {
  type: TOfferType;
  name: string;
  description: string;
  aprType: 'variable' | 'fixed';
  applicationUrl: string;
  termMonths: string;
  annualFee: string;
  status: 'draft' | 'active';
  tiers: TierDraft[];
  rules: Record<RuleKey, string> & { states: string };
}

/** The API answers `{clickId}` percent-encoded in a URL; the form shows it as the bank wrote it. */
const placeholdersShown = (url: string) =>
  url.replaceAll('%7BclickId%7D', '{clickId}').replaceAll('%7BexternalUserId%7D', '{externalUserId}');

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

const draftOf = (offer: TOffer | undefined): Draft => ({
  type: offer?.type ?? 'credit_card',
  name: offer?.name ?? '',
  description: offer?.description ?? '',
  aprType: offer?.apr.type ?? 'variable',
  applicationUrl: offer ? placeholdersShown(offer.applicationUrl) : 'https://',
  termMonths: text(offer?.termMonths),
  annualFee: text(offer?.costs.annualFee ?? 0),
  status: 'draft',
  tiers: (offer?.tiers ?? [{ minScore: 670, maxScore: 850, apr: 19.99, creditLimit: null }]).map((t) => ({
    minScore: text(t.minScore),
    maxScore: text(t.maxScore),
    apr: text(t.apr),
    limitMin: text(t.creditLimit?.min),
    limitMax: text(t.creditLimit?.max),
  })),
  rules: {
    minScore: text(offer?.rules.minScore),
    maxScore: text(offer?.rules.maxScore),
    maxUtilization: text(offer?.rules.maxUtilization),
    minFileAgeMonths: text(offer?.rules.minFileAgeMonths),
    noDelinquencyMonths: text(offer?.rules.noDelinquencyMonths),
    states: offer?.rules.states?.join(', ') ?? '',
  },
});

/** A number typed in a field, or undefined when empty; NaN stays NaN so the API names the field. */
const num = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));

/**
 * The terms the count reads, from the draft: tiers and rules as the API takes them. Rules other than these (a
 * refinance rule set through the API) are kept as the offer has them.
 */
const termsOf = (draft: Draft, kept: TOffer['rules'] | undefined): TAudiencePreviewInput => {
  const rules: Record<string, unknown> = { ...(kept?.refinance ? { refinance: kept.refinance } : {}) };
  for (const { key } of RULE_FIELDS) {
    const value = num(draft.rules[key]);
    if (value !== undefined) rules[key] = value;
  }
  const states = draft.rules.states
    .split(/[\s,]+/)
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  if (states.length) rules.states = states;
  return {
    type: draft.type,
    tiers: draft.tiers.map((t) => {
      const min = num(t.limitMin);
      const max = num(t.limitMax);
      return {
        minScore: num(t.minScore) ?? Number.NaN,
        maxScore: num(t.maxScore) ?? Number.NaN,
        apr: num(t.apr) ?? Number.NaN,
        creditLimit: min === undefined && max === undefined ? null : { min: min ?? 0, max: max ?? min ?? 0 },
      };
    }),
    rules: rules as TAudiencePreviewInput['rules'],
    termMonths: draft.type === 'credit_card' ? null : (num(draft.termMonths) ?? null),
  };
};

/** The costs the form does not show (set through the API) are kept as the offer has them; `costs` is replaced whole. */
const costsOf = (draft: Draft, kept: TOffer['costs'] | undefined) => ({
  annualFee: num(draft.annualFee) ?? 0,
  ...(kept?.originationFeePercent != null ? { originationFeePercent: kept.originationFeePercent } : {}),
  ...(kept?.balanceTransferFeePercent != null ? { balanceTransferFeePercent: kept.balanceTransferFeePercent } : {}),
  ...(kept?.introApr ? { introApr: kept.introApr } : {}),
});

const offerInput = (draft: Draft, kept: TOffer | undefined) => {
  const terms = termsOf(draft, kept?.rules);
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    aprType: draft.aprType,
    applicationUrl: draft.applicationUrl.trim(),
    tiers: terms.tiers,
    rules: terms.rules ?? {},
    termMonths: terms.termMonths ?? null,
    costs: costsOf(draft, kept?.costs),
  };
};

/**
 * Every figure a tier or rule needs is a finite number: only then is the count worth asking. Read after a JSON round
 * trip, where a figure typed wrong (NaN) has become null.
 */
const countable = (terms: TAudiencePreviewInput) =>
  terms.tiers.length > 0 &&
  terms.tiers.every(
    (t) =>
      Number.isFinite(t.minScore) &&
      Number.isFinite(t.maxScore) &&
      Number.isFinite(t.apr) &&
      (!t.creditLimit || (Number.isFinite(t.creditLimit.min) && Number.isFinite(t.creditLimit.max))),
  ) &&
  Object.values(terms.rules ?? {}).every((v) => v !== null && (typeof v !== 'number' || Number.isFinite(v)));

/** The same value, once it has stopped changing for `ms`: a count per pause in typing, not per key. */
const useSettled = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

/** “412 customers qualify today”, kept up to date as the tiers and rules change. */
const QualifyingCount = ({ terms }: { terms: TAudiencePreviewInput }) => {
  const { api } = useConsole();
  const t = useMessages(offersMessages);
  const states = useMessages(stateMessages);
  const f = useFormat();
  const key = useSettled(JSON.stringify(terms), 400);
  const settled = JSON.parse(key) as TAudiencePreviewInput;
  const ready = countable(settled);
  const count = useQuery({
    queryKey: ['previewOfferAudience', key],
    queryFn: () => api.call('previewOfferAudience', { body: settled }),
    enabled: ready,
    placeholderData: (previous) => previous,
    staleTime: 10_000,
  });
  let says: string;
  if (!ready) says = t.countNotReady;
  else if (count.isError) {
    const { title, advice } = describeError(count.error, states);
    says = t.countFailed(title, advice);
  } else if (!count.data) says = t.counting;
  else {
    const n = count.data.qualifying;
    says = t.qualify(n, f.count(n), count.isFetching);
  }
  return (
    <p className="qualifying" role="status" aria-live="polite" data-testid="qualifying-count">
      {says}
    </p>
  );
};

const TierFields = ({
  tiers,
  onChange,
  disabled,
}: {
  tiers: TierDraft[];
  onChange: (tiers: TierDraft[]) => void;
  disabled: boolean;
}) => {
  const t = useMessages(offersMessages);
  const set = (i: number, field: keyof TierDraft, value: string) =>
    onChange(tiers.map((t, j) => (j === i ? { ...t, [field]: value } : t)));
  return (
    <fieldset className="group">
      <legend>{t.tiers}</legend>
      {tiers.map((tier, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tiers have no id of their own; their order is what they are.
        <fieldset key={i} className="tier">
          <legend>{t.tier(i + 1)}</legend>
          <label>
            {t.fromScore}
            <input inputMode="numeric" value={tier.minScore} onChange={(e) => set(i, 'minScore', e.target.value)} />
          </label>
          <label>
            {t.toScore}
            <input inputMode="numeric" value={tier.maxScore} onChange={(e) => set(i, 'maxScore', e.target.value)} />
          </label>
          <label>
            {t.tierApr}
            <input inputMode="decimal" value={tier.apr} onChange={(e) => set(i, 'apr', e.target.value)} />
          </label>
          <label>
            {t.limitFrom}
            <input inputMode="numeric" value={tier.limitMin} onChange={(e) => set(i, 'limitMin', e.target.value)} />
          </label>
          <label>
            {t.limitTo}
            <input inputMode="numeric" value={tier.limitMax} onChange={(e) => set(i, 'limitMax', e.target.value)} />
          </label>
          {!disabled && tiers.length > 1 ? (
            <button type="button" className="button button-quiet" onClick={() => onChange(tiers.filter((_, j) => j !== i))}>
              {t.removeTier(i + 1)}
            </button>
          ) : null}
        </fieldset>
      ))}
      {!disabled && tiers.length < 10 ? (
        <button
          type="button"
          className="button button-quiet"
          onClick={() => onChange([...tiers, { minScore: '', maxScore: '', apr: '', limitMin: '', limitMax: '' }])}
        >
          {t.addTier}
        </button>
      ) : null}
    </fieldset>
  );
};

const OfferForm = ({ offer }: { offer?: TOffer }) => {
  const { api, may } = useConsole();
  const t = useMessages(offersMessages);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(offer));
  const canChange = offer ? may('updateOffer') && offer.status !== 'archived' : may('createOffer');
  const descriptionId = useId();
  const save = useMutation({
    mutationFn: async () => {
      const input = offerInput(draft, offer);
      if (offer) return api.call('updateOffer', { params: { offerId: offer.offerId }, body: input });
      const body: TCreateOfferInput = { ...input, type: draft.type, status: draft.status };
      return api.call('createOffer', { body });
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['listOffers'] });
      queryClient.setQueryData(['getOffer', saved.offerId], saved);
      if (!offer) navigate(hrefWith(PATH, { offer: saved.offerId }));
    },
  });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setRule = (key: RuleKey | 'states', value: string) => setDraft((d) => ({ ...d, rules: { ...d.rules, [key]: value } }));
  return (
    <form
      className="offer-form"
      aria-label={offer ? t.termsOf(offer.name) : t.newOffer}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <fieldset disabled={!canChange} className="plain">
        <div className="form-grid">
          <label>
            {t.type}
            <select
              value={draft.type}
              onChange={(e) => set('type', e.target.value as TOfferType)}
              disabled={Boolean(offer)}
              aria-describedby={offer ? descriptionId : undefined}
            >
              {TYPES.map((type) => (
                <option key={type} value={type}>
                  {t.types[type]}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t.name}
            <input value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={120} />
          </label>
          <label className="wide">
            {t.description}
            <textarea value={draft.description} onChange={(e) => set('description', e.target.value)} rows={2} required />
          </label>
          <label className="wide">
            {t.applicationUrl}
            <input
              value={draft.applicationUrl}
              onChange={(e) => set('applicationUrl', e.target.value)}
              inputMode="url"
              spellCheck={false}
              required
            />
          </label>
          <label>
            {t.aprType}
            <select value={draft.aprType} onChange={(e) => set('aprType', e.target.value as Draft['aprType'])}>
              <option value="variable">{t.aprTypes.variable}</option>
              <option value="fixed">{t.aprTypes.fixed}</option>
            </select>
          </label>
          <label>
            {t.annualFee}
            <input inputMode="decimal" value={draft.annualFee} onChange={(e) => set('annualFee', e.target.value)} />
          </label>
          {draft.type !== 'credit_card' ? (
            <label>
              {t.term}
              <input inputMode="numeric" value={draft.termMonths} onChange={(e) => set('termMonths', e.target.value)} />
            </label>
          ) : null}
          {offer ? null : (
            <label>
              {t.publish}
              <select value={draft.status} onChange={(e) => set('status', e.target.value as Draft['status'])}>
                <option value="draft">{t.publishDraft}</option>
                <option value="active">{t.publishNow}</option>
              </select>
            </label>
          )}
        </div>
        {offer ? (
          <p id={descriptionId} className="muted">
            {t.typeFixed}
          </p>
        ) : null}
        <TierFields tiers={draft.tiers} onChange={(tiers) => set('tiers', tiers)} disabled={!canChange} />
        <fieldset className="group">
          <legend>{t.rules}</legend>
          <div className="form-grid">
            {RULE_FIELDS.map((field) => (
              <label key={field.key}>
                {t.ruleFields[field.key]}
                <input
                  inputMode="numeric"
                  value={draft.rules[field.key]}
                  onChange={(e) => setRule(field.key, e.target.value)}
                  placeholder={field.hint === 'months' ? t.monthsHint : field.hint}
                />
              </label>
            ))}
            <label>
              {t.states}
              <input
                value={draft.rules.states}
                onChange={(e) => setRule('states', e.target.value)}
                placeholder="IL, WI"
                spellCheck={false}
              />
            </label>
          </div>
        </fieldset>
      </fieldset>
      {may('previewOfferAudience') && canChange ? (
        <QualifyingCount terms={{ ...termsOf(draft, offer?.rules), costs: costsOf(draft, offer?.costs) }} />
      ) : null}
      {canChange ? (
        <div className="form-actions">
          <button type="submit" className="button" disabled={save.isPending}>
            {offer ? t.save : t.create}
          </button>
          <Outcome mutation={save} success={save.data && offer ? t.saved(save.data.version) : undefined} />
        </div>
      ) : null}
    </form>
  );
};

/** Each status change, the statuses it leaves, and the strings of its button and of its outcome. */
const TRANSITIONS = [
  { id: 'pauseOffer', label: 'pause', from: ['active'], done: 'paused' },
  { id: 'resumeOffer', label: 'resume', from: ['paused', 'draft'], done: 'resumed' },
  { id: 'archiveOffer', label: 'archive', from: ['draft', 'active', 'paused', 'expired'], done: 'archived' },
] as const satisfies readonly {
  id: string;
  label: 'pause' | 'resume' | 'archive';
  from: readonly string[];
  done: 'paused' | 'resumed' | 'archived';
}[];

const Transitions = ({ offer }: { offer: TOffer }) => {
  const { api, may } = useConsole();
  const t = useMessages(offersMessages);
  const queryClient = useQueryClient();
  const [confirmArchive, setConfirmArchive] = useState(false);
  const change = useMutation({
    mutationFn: (id: (typeof TRANSITIONS)[number]['id']) => {
      const params = { params: { offerId: offer.offerId } };
      return id === 'pauseOffer'
        ? api.call('pauseOffer', params)
        : id === 'resumeOffer'
          ? api.call('resumeOffer', params)
          : api.call('archiveOffer', params);
    },
    onSuccess: async (saved) => {
      setConfirmArchive(false);
      queryClient.setQueryData(['getOffer', saved.offerId], saved);
      await queryClient.invalidateQueries({ queryKey: ['listOffers'] });
    },
  });
  const shown = TRANSITIONS.filter((tr) => may(tr.id) && (tr.from as readonly string[]).includes(offer.status));
  if (shown.length === 0) return null;
  const doneKey = TRANSITIONS.find((tr) => tr.id === change.variables)?.done;
  const done = doneKey ? t[doneKey] : undefined;
  return (
    <div className="actions">
      {shown.map((tr) =>
        tr.id === 'archiveOffer' && !confirmArchive ? (
          <button key={tr.id} type="button" className="button button-quiet" onClick={() => setConfirmArchive(true)}>
            {t.archiveAsk}
          </button>
        ) : (
          <button
            key={tr.id}
            type="button"
            className={tr.id === 'archiveOffer' ? 'button button-danger' : 'button'}
            onClick={() => change.mutate(tr.id)}
            disabled={change.isPending}
          >
            {t[tr.label]}
          </button>
        ),
      )}
      <Outcome mutation={change} success={done} />
    </div>
  );
};

const OfferFile = ({ offerId }: { offerId: string }) => {
  const { api } = useConsole();
  const t = useMessages(offersMessages);
  const f = useFormat();
  const offer = useQuery({ queryKey: ['getOffer', offerId], queryFn: () => api.call('getOffer', { params: { offerId } }) });
  if (offer.isPending) return <Loading what={t.loadingOffer} />;
  if (offer.isError) return <ErrorState error={offer.error} retry={() => void offer.refetch()} />;
  const o = offer.data;
  return (
    <section className="card" aria-labelledby="offer-heading">
      <div className="card-head">
        <h2 id="offer-heading">{o.name}</h2>
        <span className={`badge ${o.status === 'active' ? 'badge-ok' : 'badge-warn'}`}>{t.statuses[o.status]}</span>
      </div>
      <p className="muted">{t.summary(t.types[o.type], o.version, f.instant(o.updatedAt))}</p>
      <Transitions offer={o} />
      <OfferForm key={`${o.offerId}/${o.version}/${o.status}`} offer={o} />
    </section>
  );
};

/** The bank's catalogue; an editor creates and changes offers, with the count who qualify as the rules change. */
export const OffersPage = ({ query }: { query: URLSearchParams }) => {
  const { may } = useConsole();
  const t = useMessages(offersMessages);
  const offer = query.get('offer') ?? '';
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p className="lede">{t.lede}</p>
      </div>
      {offer ? (
        <p>
          <Link href={PATH}>{t.allOffers}</Link>
        </p>
      ) : null}
      {!may('updateOffer') ? <p className="note">{t.viewerNote}</p> : null}
      {offer === 'new' ? (
        may('createOffer') ? (
          <section className="card" aria-labelledby="new-offer-heading">
            <h2 id="new-offer-heading">{t.newOffer}</h2>
            <OfferForm />
          </section>
        ) : (
          <p className="state state-error" role="alert">
            {t.newNeedsEditor}
          </p>
        )
      ) : offer && OFFER_ID.test(offer) ? (
        <OfferFile offerId={offer} />
      ) : offer ? (
        <p className="state state-error" role="alert">
          {t.noOffer} <Link href={PATH}>{t.theCatalogue}</Link>.
        </p>
      ) : (
        <Catalogue query={query} />
      )}
    </>
  );
};
