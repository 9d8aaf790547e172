import type { TCreditReportAccount, TOffer, TOfferType } from '@credit/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type Ref, useCallback, useEffect, useId, useRef, useState } from 'react';
import { SeverityIcon } from '../alerts/SeverityIcon.tsx';
import { creditReportQuery } from '../api/credit.ts';
import { offersQuery, recordOfferClick } from '../api/offers.ts';
import { useApi, useEmitEvent } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { accountMessages } from '../report/account-messages.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';
import { descriptionEs, requirementEs } from './copy-es.ts';
import { reasonText, savingsClaim, savingsText } from './explain.ts';
import { impressionQueueFor, useSeen } from './impressions.ts';
import { type Duration, messages } from './messages.ts';
import './offers.css';

const OFFER_TYPES: readonly TOfferType[] = ['credit_card', 'loan', 'mortgage'];
/** A phone shows this many offers at first, and this many more on each "Show more". */
const OFFERS_PER_STEP = 5;

/**
 * Whatever address the API gives is opened as it is; a relative one (a sandbox landing page the API serves)
 * resolves against the frame's own origin, the API's. Only web pages open: a `javascript:` or `data:` link in
 * an offer must never run in the customer's browser.
 */
const webUrl = (url: string): string | null => {
  try {
    const resolved = new URL(url, window.location.href);
    return resolved.protocol === 'https:' || resolved.protocol === 'http:' ? resolved.href : null;
  } catch {
    return null;
  }
};

/** Decimals of a percentage as shown (at most two). */
const decimalsOf = (value: number): number => {
  const [, fraction = ''] = String(Math.round(value * 100) / 100).split('.');
  return fraction.length;
};

/** A term in years when it is whole years, else in months. */
const termOf = (months: number): Duration =>
  months % 12 === 0 ? { count: months / 12, unit: 'years' } : { count: months, unit: 'months' };

/**
 * "Lower your payment by $84 a month and pay $2,210 less overall, compared with your Contoso Auto Finance auto loan
 * at 11.4%": only the changes the figures show, against the account named once the report has it.
 */
function Savings({
  savings,
  account,
}: {
  savings: NonNullable<TOffer['estimatedSavings']>;
  account: TCreditReportAccount | undefined;
}) {
  const t = useMessages(messages);
  const names = useMessages(accountMessages);
  const i18n = useI18n();
  const claim = savingsText(savings, t, i18n);
  if (!claim) return null;
  const fees = Math.round(savings.fees);
  const compared = t.comparedWith(
    account ? names.accountName(account.creditor, account.type) : null,
    account?.apr != null ? i18n.formatPercent(account.apr) : null,
  );
  return (
    <p className="cw-offer__savings">
      <strong>{claim}</strong>, {compared}.{fees > 0 ? ` ${t.feesIncluded(i18n.formatCurrency(fees))}` : null}
    </p>
  );
}

/** Each requirement of the offer with a mark and a word for met or not, so neither rests on colour. */
function Reasons({ offer }: { offer: TOffer }) {
  const t = useMessages(messages);
  const i18n = useI18n();
  const labelId = useId();
  const reasons = offer.qualification?.reasons ?? [];
  if (reasons.length === 0) return null;
  return (
    <div className="cw-offer__requirements">
      <p id={labelId} className="cw-offer__reasons-title">
        {t.reasonsLabel}
      </p>
      <ul className="cw-offer__reasons" aria-labelledby={labelId}>
        {reasons.map((reason) => (
          // One reason per rule of the offer: the rule names it.
          <li
            key={reason.rule}
            className={`cw-offer__reason ${reason.met ? 'cw-offer__reason--met' : 'cw-offer__reason--unmet'}`}
          >
            <span className="cw-offer__reason-mark" aria-hidden="true">
              {reason.met ? '✓' : '✕'}
            </span>
            <span>
              <span className="cw-visually-hidden">{reason.met ? t.met : t.notMet} </span>
              {reasonText(reason, offer, t, i18n)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function OfferCard({
  offer,
  position,
  userId,
  headingRef,
  accounts,
}: {
  offer: TOffer;
  position: number;
  userId: string;
  headingRef?: Ref<HTMLHeadingElement>;
  /** The credit report's accounts, to name the one an offer would refinance; undefined until (unless) they load. */
  accounts: readonly TCreditReportAccount[] | undefined;
}) {
  const t = useMessages(messages);
  const api = useApi();
  const emitEvent = useEmitEvent();
  const { formatCurrency, formatPercent, formatDate, locale } = useI18n();
  const errorId = useId();
  const [invalidLink, setInvalidLink] = useState(false);
  /** Where there is no window to open (a webview returns null), the customer follows a link instead. */
  const [linkUrl, setLinkUrl] = useState<string | null>(null);
  // The card (the list item Card renders), found from inside it: Card gives no ref to its own element.
  const cardRef = useRef<Element | null>(null);
  const findCard = useCallback((inside: HTMLElement | null) => {
    cardRef.current = inside?.closest('li') ?? inside;
  }, []);
  const queue = impressionQueueFor(api, userId);
  useSeen(cardRef, () => queue.add(offer.offerId));

  // The click is recorded first so the partner is credited; its answer carries the address to open, click id filled.
  const apply = useMutation({
    mutationFn: (_popup: Window | null) =>
      recordOfferClick(api, userId, offer.offerId, {
        source: 'widget',
        timestamp: new Date().toISOString(),
        metadata: { page: 'offers', position },
      }),
    onSuccess: (click, popup) => {
      const url = webUrl(click.applicationUrl);
      if (!url) {
        popup?.close();
        setInvalidLink(true);
        return;
      }
      if (popup && !popup.closed) popup.location.href = url;
      else setLinkUrl(url);
      emitEvent({ name: 'offer_clicked', data: { userId, offerId: offer.offerId, clickId: click.clickId, url } });
    },
    onError: (_error, popup) => popup?.close(),
  });

  const onApply = () => {
    setLinkUrl(null);
    setInvalidLink(false);
    // The listed address is the template the click's will be filled from: a bad one is refused before a click counts.
    if (!webUrl(offer.applicationUrl)) {
      setInvalidLink(true);
      return;
    }
    // Opened now, inside the click: after the API's round trip a popup blocker no longer counts it as
    // the customer's gesture. The blank window is cut off from the widget before it goes anywhere.
    const popup = window.open('', '_blank');
    if (popup) popup.opener = null;
    apply.mutate(popup);
  };
  const failure = invalidLink ? t.invalidLink : apply.isError ? t.clickFailed : null;

  const qualification = offer.preQualified ? offer.qualification : null;
  const isCard = offer.type === 'credit_card';
  const range = (limit: { min: number; max: number }) => t.amountRange(formatCurrency(limit.min), formatCurrency(limit.max));
  // Both ends with the same decimals ("6.00%–6.88%", not "6%–6.88%"), so they read as one kind of number.
  const aprDigits = Math.max(decimalsOf(offer.apr.min), decimalsOf(offer.apr.max));
  const apr = (value: number) => formatPercent(value, { minimumFractionDigits: aprDigits, maximumFractionDigits: aprDigits });
  const rows: [string, string][] = [];
  // A customer who qualifies sees their own band's terms; anyone else the offer's whole range.
  if (qualification?.apr != null) rows.push([t.yourApr, t.yourAprValue(formatPercent(qualification.apr), offer.apr.type)]);
  else rows.push([t.apr, t.aprRange(apr(offer.apr.min), apr(offer.apr.max), offer.apr.type)]);
  if (qualification?.creditLimit) rows.push([isCard ? t.yourCreditLimit : t.yourLoanAmount, range(qualification.creditLimit)]);
  else rows.push([isCard ? t.creditLimit : t.loanAmount, offer.creditLimit ? range(offer.creditLimit) : t.notStated]);
  const { costs } = offer;
  if (costs.introApr) rows.push([t.introApr, t.introAprValue(formatPercent(costs.introApr.apr), costs.introApr.months)]);
  if (offer.termMonths) rows.push([t.term, t.duration(termOf(offer.termMonths))]);
  rows.push([t.annualFee, costs.annualFee === 0 ? t.noAnnualFee : formatCurrency(costs.annualFee)]);
  if (costs.originationFeePercent) {
    rows.push([t.originationFee, t.originationFeeValue(formatPercent(costs.originationFeePercent))]);
  }
  if (costs.balanceTransferFeePercent) {
    rows.push([t.balanceTransferFee, t.balanceTransferFeeValue(formatPercent(costs.balanceTransferFeePercent))]);
  }
  if (offer.signupBonus) {
    const requirement = (locale === 'es' && requirementEs(offer)) || offer.signupBonus.requirement;
    rows.push([t.bonus, t.bonusValue(formatCurrency(offer.signupBonus.amount), requirement)]);
  }

  return (
    <Card
      as="li"
      titleLevel={3}
      className="cw-offer"
      title={offer.name}
      titleRef={headingRef}
      aside={
        offer.preQualified ? (
          <Badge tone="success">
            <span aria-hidden="true">✓</span> {t.preQualified}
          </Badge>
        ) : (
          <Badge tone="neutral">{t.notPreQualified}</Badge>
        )
      }
    >
      <p className="cw-offer__provider" ref={findCard}>
        {offer.provider} · {t.types[offer.type]}
      </p>
      {offer.estimatedSavings ? (
        <Savings
          savings={offer.estimatedSavings}
          account={accounts?.find((account) => account.accountId === offer.estimatedSavings?.comparedToAccountId)}
        />
      ) : null}
      <p className="cw-offer__description">{locale === 'es' ? descriptionEs(offer) : offer.description}</p>
      <dl className="cw-offer__terms">
        {rows.map(([term, value]) => (
          <div key={term} className="cw-offer__term">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Reasons offer={offer} />
      {offer.expiresAt ? <p className="cw-muted cw-small">{t.endsOn(formatDate(offer.expiresAt))}</p> : null}
      <div className="cw-card-actions">
        <Button
          className="cw-offer__apply"
          loading={apply.isPending}
          onClick={onApply}
          aria-describedby={failure ? errorId : undefined}
        >
          {t.apply}
          <span className="cw-visually-hidden">
            {t.applyFor(offer.name)} {t.opensNewWindow}
          </span>
          <span aria-hidden="true"> ↗</span>
        </Button>
        {failure ? (
          <p id={errorId} className="cw-inline-error" role="alert">
            <SeverityIcon severity="warning" />
            {failure}
          </p>
        ) : null}
        {linkUrl ? (
          <a className="cw-offer__continue" href={linkUrl} target="_blank" rel="noopener noreferrer">
            {t.continueToApplication}
            <span className="cw-visually-hidden"> {t.opensNewWindow}</span>
            <span aria-hidden="true"> ↗</span>
          </a>
        ) : null}
      </div>
    </Card>
  );
}

/** The offers tab: filter by type, each offer's terms, and Apply (click recorded through the API first). */
export function OffersPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const headingId = useId();
  const [type, setType] = useState<TOfferType | undefined>(undefined);
  const offers = useQuery({ ...offersQuery(api, userId, type), placeholderData: keepPreviousData });
  // The report only names the account a saving is against: asked for only when there is a saving to name, and
  // until it arrives (or if it fails) the line says "an account on your credit report" instead.
  const anySavings =
    offers.data?.some((offer) => offer.estimatedSavings !== null && savingsClaim(offer.estimatedSavings) !== null) ?? false;
  const report = useQuery({ ...creditReportQuery(api, userId), enabled: anySavings });
  const [shownCount, setShownCount] = useState(OFFERS_PER_STEP);
  /** Index of the first offer the last "Show more" revealed: its heading takes focus, so the reader lands there. */
  const [firstRevealed, setFirstRevealed] = useState<number | null>(null);
  const firstRevealedHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (firstRevealed !== null) firstRevealedHeading.current?.focus();
  }, [firstRevealed]);

  const chooseType = (option: TOfferType | undefined) => {
    setType(option);
    setShownCount(OFFERS_PER_STEP);
    setFirstRevealed(null);
  };
  const showMore = () => {
    setFirstRevealed(shownCount);
    setShownCount(shownCount + OFFERS_PER_STEP);
  };

  let body: React.ReactNode;
  if (offers.isPending) {
    body = (
      <LoadingRegion label={t.loading}>
        {[0, 1].map((i) => (
          <Skeleton key={i} height={180} />
        ))}
      </LoadingRegion>
    );
  } else if (offers.isError) {
    body = <PanelError error={offers.error} onRetry={() => offers.refetch()} />;
  } else if (offers.data.length === 0 && !offers.isPlaceholderData) {
    body = (
      <div className="cw-empty-state cw-offers__empty">
        <p>{type ? t.emptyType[type] : t.emptyAll}</p>
        {type ? (
          <Button variant="secondary" onClick={() => chooseType(undefined)}>
            {t.showAll}
          </Button>
        ) : null}
      </div>
    );
  } else {
    const total = offers.data.length;
    // The API ranks the offers the customer qualifies for first, the largest saving first: the list keeps its order.
    const shown = offers.data.slice(0, shownCount);
    body = (
      <>
        <p className="cw-muted" aria-live="polite">
          {offers.isPlaceholderData ? t.loading : t.showing(shown.length, total)}
        </p>
        <ul className="cw-card-list cw-stale-while-busy" aria-busy={offers.isPlaceholderData || undefined}>
          {shown.map((offer, index) => (
            <OfferCard
              key={offer.offerId}
              offer={offer}
              position={index}
              userId={userId}
              headingRef={index === firstRevealed ? firstRevealedHeading : undefined}
              accounts={report.data?.accounts}
            />
          ))}
        </ul>
        {shown.length < total ? (
          <Button variant="secondary" className="cw-offers__more" onClick={showMore}>
            {t.showMore}
          </Button>
        ) : null}
      </>
    );
  }

  return (
    <section className="cw-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      {/* A frozen file (or any failure) has no offers to filter: the error screen stands alone. */}
      {offers.isError ? null : (
        <>
          <p className="cw-muted">
            {t.intro}
            {anySavings ? ` ${t.savingsFirst}` : null}
          </p>
          <fieldset className="cw-offers__filter">
            <legend className="cw-visually-hidden">{t.filterLabel}</legend>
            {[undefined, ...OFFER_TYPES].map((option) => (
              <button
                key={option ?? 'all'}
                type="button"
                className="cw-toggle-button cw-chip"
                aria-pressed={option === type}
                onClick={() => chooseType(option)}
              >
                {option ? t.types[option] : t.all}
              </button>
            ))}
          </fieldset>
        </>
      )}
      {body}
    </section>
  );
}
