import type {
  TCreditReport,
  TCreditReportAccount,
  TCreditReportInquiry,
  TCreditReportSummary,
  TReportAccountStatus,
} from '@credit/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { creditReportQuery } from '../api/credit.ts';
import { useApi } from '../app/WidgetServicesProvider.tsx';
import { PanelError } from '../dashboard/PanelError.tsx';
import { PanelSkeleton } from '../dashboard/PanelSkeleton.tsx';
import { useI18n, useMessages } from '../i18n/index.ts';
import { Badge, type BadgeTone } from '../ui/Badge.tsx';
import { Card } from '../ui/Card.tsx';
import { accountMessages } from './account-messages.ts';
import { messages } from './messages.ts';
import { isLate, PaymentHistoryGrid } from './PaymentHistoryGrid.tsx';
import './report.css';

const STATUS_TONES: Record<TReportAccountStatus, BadgeTone> = {
  open: 'info',
  closed: 'neutral',
  paid_off: 'success',
  charged_off: 'danger',
  in_collection: 'danger',
  paid_collection: 'warning',
};

type Figure = [term: string, value: string];

/** Term and value pairs, wrapping two or three to a row where there is room and one under the other on a phone. */
function Figures({ rows, className }: { rows: Figure[]; className?: string }) {
  return (
    <dl className={`cw-figures ${className ?? ''}`}>
      {rows.map(([term, value]) => (
        <div key={term} className="cw-figures__item">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Summary({ summary }: { summary: TCreditReportSummary }) {
  const t = useMessages(messages);
  const { formatNumber, formatCurrency, formatPercent } = useI18n();
  const years = (value: number) => t.years(formatNumber(value, { maximumFractionDigits: 1 }));
  const percent = (value: number) => formatPercent(value, { maximumFractionDigits: 1 });
  return (
    <div className="cw-report__section">
      <h3>{t.summaryHeading}</h3>
      <Figures
        className="cw-figures--summary"
        rows={[
          [t.openAccounts, formatNumber(summary.openAccounts)],
          [t.totalBalance, formatCurrency(summary.totalBalance)],
          [t.cardBalances, t.ofLimit(formatCurrency(summary.cardBalance), formatCurrency(summary.totalCreditLimit))],
          [t.utilization, percent(summary.utilizationPercent)],
          [t.monthlyPayments, formatCurrency(summary.totalMonthlyPayments)],
          [t.oldestAccount, years(summary.oldestAccountAgeYears)],
          [t.averageAge, years(summary.averageAccountAgeYears)],
          [
            t.hardInquiries,
            t.hardInquiriesValue(formatNumber(summary.hardInquiries24Months), formatNumber(summary.hardInquiries12Months)),
          ],
          [t.latePayments, formatNumber(summary.latePayments)],
          [t.derogatoryMarks, formatNumber(summary.derogatoryMarks)],
          [t.onTime, percent(summary.onTimePaymentPercent)],
        ]}
      />
    </div>
  );
}

function Account({ account }: { account: TCreditReportAccount }) {
  const t = useMessages(messages);
  const names = useMessages(accountMessages);
  const { formatNumber, formatCurrency, formatPercent, formatDate } = useI18n();
  const accountName = names.accountName(account.creditor, account.type);
  // Cents where the lender reports them ("$1,840.50"), none where it does not ("$1,840", not "$1,840.00").
  const money = (value: number) =>
    formatCurrency(value, Number.isInteger(value) ? {} : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const rows: Figure[] = [[t.balance, money(account.balance)]];
  if (account.creditLimit !== null) rows.push([t.creditLimit, money(account.creditLimit)]);
  if (account.originalAmount !== null) {
    rows.push([account.type === 'collection' ? t.amountPlaced : t.originalAmount, money(account.originalAmount)]);
  }
  if (account.monthlyPayment !== null) {
    rows.push([account.type === 'credit_card' ? t.minimumPayment : t.monthlyPayment, money(account.monthlyPayment)]);
  }
  if (account.apr !== null) rows.push([t.apr, formatPercent(account.apr)]);
  if (account.utilizationPercent !== null) {
    rows.push([t.accountUtilization, formatPercent(account.utilizationPercent, { maximumFractionDigits: 1 })]);
  }
  if (account.termMonths !== null) rows.push([t.term, t.months(formatNumber(account.termMonths))]);
  rows.push([t.opened, formatDate(account.openedOn)]);
  if (account.closedOn) rows.push([t.closed, formatDate(account.closedOn)]);
  rows.push([t.lifetimeLatePayments, formatNumber(account.latePayments)]);
  const lateMonths = account.paymentHistory.filter((month) => isLate(month.status)).length;

  return (
    <Card
      as="li"
      titleLevel={4}
      className="cw-account"
      title={account.creditor}
      aside={<Badge tone={STATUS_TONES[account.status]}>{names.statuses[account.status]}</Badge>}
    >
      <p className="cw-account__kind">
        {names.types[account.type]}
        {account.originalCreditor ? ` · ${t.originalCreditor(account.originalCreditor)}` : null}
      </p>
      <Figures rows={rows} />
      {account.paymentHistory.length ? (
        // Collapsed: a report lists many accounts, and the summary line already says whether any month was late.
        <details className="cw-account__history">
          <summary>{t.historySummary(account.paymentHistory.length, lateMonths)}</summary>
          <PaymentHistoryGrid account={account} accountName={accountName} />
        </details>
      ) : null}
    </Card>
  );
}

function InquiryList({ inquiries, empty }: { inquiries: TCreditReportInquiry[]; empty: string }) {
  const { formatDate } = useI18n();
  if (inquiries.length === 0) return <p className="cw-muted">{empty}</p>;
  return (
    <ul className="cw-report__rows">
      {inquiries.map((inquiry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one lender may ask twice on one day; the position is the identity.
        <li key={index}>
          <span>{inquiry.source}</span>
          <span className="cw-muted">{formatDate(inquiry.date)}</span>
        </li>
      ))}
    </ul>
  );
}

function Inquiries({ inquiries }: { inquiries: TCreditReportInquiry[] }) {
  const t = useMessages(messages);
  return (
    <div className="cw-report__section">
      <h3>{t.inquiriesHeading}</h3>
      <div className="cw-report__subsection">
        <h4>{t.hardHeading}</h4>
        <p className="cw-muted cw-small">{t.hardAbout}</p>
        <InquiryList inquiries={inquiries.filter((inquiry) => inquiry.kind === 'hard')} empty={t.noHard} />
      </div>
      <div className="cw-report__subsection">
        <h4>{t.softHeading}</h4>
        <p className="cw-muted cw-small">{t.softAbout}</p>
        <InquiryList inquiries={inquiries.filter((inquiry) => inquiry.kind === 'soft')} empty={t.noSoft} />
      </div>
    </div>
  );
}

function PublicRecords({ records }: { records: TCreditReport['publicRecords'] }) {
  const t = useMessages(messages);
  const { formatDate } = useI18n();
  return (
    <div className="cw-report__section">
      <h3>{t.publicRecordsHeading}</h3>
      {records.length === 0 ? (
        <p className="cw-muted">{t.noPublicRecords}</p>
      ) : (
        <ul className="cw-card-list">
          {records.map((record) => (
            <Card
              key={`${record.type}-${record.filedOn}`}
              as="li"
              titleLevel={4}
              title={t.publicRecordTypes[record.type]}
              aside={
                <Badge tone={record.status === 'filed' ? 'danger' : 'neutral'}>{t.publicRecordStatuses[record.status]}</Badge>
              }
            >
              <Figures
                rows={[
                  [t.filed, formatDate(record.filedOn)],
                  ...(record.resolvedOn ? [[t.resolved, formatDate(record.resolvedOn)] as Figure] : []),
                  [t.court, record.court],
                ]}
              />
            </Card>
          ))}
        </ul>
      )}
    </div>
  );
}

function PersonalInformation({ info }: { info: TCreditReport['personalInformation'] }) {
  const t = useMessages(messages);
  const { formatDate } = useI18n();
  return (
    <div className="cw-report__section">
      <h3>{t.personalHeading}</h3>
      <p className="cw-muted cw-small">{t.personalAbout}</p>
      <dl className="cw-personal">
        <div>
          <dt>{t.names}</dt>
          <dd>{info.names.length ? info.names.join(', ') : t.notReported}</dd>
        </div>
        <div>
          <dt>{t.yearOfBirth}</dt>
          <dd>{info.yearOfBirth ?? t.notReported}</dd>
        </div>
        <div>
          <dt>{t.addresses}</dt>
          <dd>
            {info.addresses.length ? (
              <ul className="cw-report__rows">
                {info.addresses.map((address) => (
                  <li key={`${address.street}-${address.zipCode}-${address.reportedOn}`}>
                    <span>
                      {address.street}, {address.city}, {address.state} {address.zipCode}
                    </span>
                    <span className="cw-muted">{t.reportedOn(formatDate(address.reportedOn))}</span>
                  </li>
                ))}
              </ul>
            ) : (
              t.notReported
            )}
          </dd>
        </div>
        <div>
          <dt>{t.employers}</dt>
          <dd>
            {info.employers.length ? (
              <ul className="cw-report__rows">
                {info.employers.map((employer) => (
                  <li key={`${employer.name}-${employer.reportedOn}`}>
                    <span>{employer.name}</span>
                    <span className="cw-muted">{t.reportedOn(formatDate(employer.reportedOn))}</span>
                  </li>
                ))}
              </ul>
            ) : (
              t.notReported
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * The report tab: the summary first (the figures the score factors use), then each account with its 24-month
 * payment history, the inquiries, public records and the personal information on file.
 */
export function ReportPanel({ userId }: { userId: string }) {
  const t = useMessages(messages);
  const api = useApi();
  const { formatDate } = useI18n();
  const headingId = useId();
  const report = useQuery(creditReportQuery(api, userId));

  if (report.isPending) return <PanelSkeleton label={t.loading} />;
  if (report.isError) return <PanelError error={report.error} onRetry={() => report.refetch()} />;

  const { summary, accounts, inquiries, publicRecords, personalInformation } = report.data;
  return (
    <section className="cw-panel cw-report" aria-labelledby={headingId}>
      <div>
        <h2 id={headingId}>{t.heading}</h2>
        <p className="cw-muted">{t.source(report.data.bureau, formatDate(report.data.reportDate, { dateStyle: 'long' }))}</p>
      </div>
      <Summary summary={summary} />
      <div className="cw-report__section">
        <h3>{t.accountsHeading(accounts.length)}</h3>
        {accounts.length === 0 ? (
          <p className="cw-muted">{t.noAccounts}</p>
        ) : (
          <ul className="cw-card-list">
            {accounts.map((account) => (
              <Account key={account.accountId} account={account} />
            ))}
          </ul>
        )}
      </div>
      <Inquiries inquiries={inquiries} />
      <PublicRecords records={publicRecords} />
      <PersonalInformation info={personalInformation} />
    </section>
  );
}

export default ReportPanel;
