import type { TCreditReportAccount, TOffer, TOfferType } from '@credit/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type Ref, useEffect, useId, useRef, useState } from 'react';
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
import { messages } from './messages.ts';
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

/** "Save about $48 a month ($1,730 in total) against your Contoso Auto Finance auto loan", and the two APRs. */
function Savings({
  savings,
  account,
}: {
  savings: NonNullable<TOffer['estimatedSavings']>;
  account: TCreditReportAccount | undefined;
}) {
  const t = useMessages(messages);
  const names = useMessages(accountMessages);
  const { formatCurrency, formatPercent } = useI18n();
  return (
    <p className="cw-offer__savings">
      <strong>
        {t.savings(
          formatCurrency(savings.monthly),
          formatCurrency(savings.total),
          account ? names.accountName(account.creditor, account.type) : null,
        )}
      </strong>{' '}
      {t.savingsApr(formatPercent(savings.offeredApr), account?.apr != null ? formatPercent(account.apr) : null)}
    </p>
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
  const applicationUrl = webUrl(offer.applicationUrl);
  const errorId = useId();
  const [invalidLink, setInvalidLink] = useState(false);
  /** Where there is no window to open (a webview returns null), the customer follows a link instead. */
  const [linkUrl, setLinkUrl] = useState<string | null>(null);
  // The click is recorded first so the partner is credited; only then does the application open.
  const apply = useMutation({
    mutationFn: (_popup: Window | null) =>
      recordOfferClick(api, userId, offer.offerId, {
        source: 'widget',
        timestamp: new Date().toISOString(),
        metadata: { page: 'offers', position },
      }),
    onSuccess: (click, popup) => {
      const url = applicationUrl as string;
      if (popup && !popup.closed) popup.location.href = url;
      else setLinkUrl(url);
      emitEvent({ name: 'offer_clicked', data: { userId, offerId: offer.offerId, clickId: click.clickId, url } });
    },
    onError: (_error, popup) => popup?.close(),
  });

  const onApply = () => {
    setLinkUrl(null);
    if (!applicationUrl) {
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

  const amount = offer.creditLimit
    ? t.amountRange(formatCurrency(offer.creditLimit.min), formatCurrency(offer.creditLimit.max))
    : t.notStated;
  // Both ends with the same decimals ("6.00%–6.88%", not "6%–6.88%"), so they read as one kind of number.
  const aprDigits = Math.max(decimalsOf(offer.apr.min), decimalsOf(offer.apr.max));
  const apr = (value: number) => formatPercent(value, { minimumFractionDigits: aprDigits, maximumFractionDigits: aprDigits });
  const rows: [string, string][] = [
    [t.apr, t.aprRange(apr(offer.apr.min), apr(offer.apr.max), offer.apr.type)],
    [offer.type === 'credit_card' ? t.creditLimit : t.loanAmount, amount],
    [t.annualFee, offer.annualFee === 0 ? t.noAnnualFee : formatCurrency(offer.annualFee)],
  ];
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
        ) : null
      }
    >
      <p className="cw-offer__provider">
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
      <p className="cw-muted cw-small">{t.endsOn(formatDate(offer.expiresAt))}</p>
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
  const anySavings = offers.data?.some((offer) => offer.estimatedSavings) ?? false;
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
    // The API ranks offers that save money first (largest total first): the list keeps its order.
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
