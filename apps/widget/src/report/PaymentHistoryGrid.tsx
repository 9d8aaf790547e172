import type { TCreditReportAccount, TPaymentStatus } from '@credit/contract';
import { useId } from 'react';
import { useI18n, useMessages } from '../i18n/index.ts';
import { messages } from './messages.ts';

type PaymentTone = 'good' | 'late' | 'bad' | 'none';

/** A mark per grade that differs in shape and text, so the grid reads without its colours. */
const SYMBOLS: Record<TPaymentStatus, string> = {
  ok: '✓',
  '30': '30',
  '60': '60',
  '90': '90',
  '120': '120',
  charge_off: '✕',
  no_data: '–',
};
const TONES: Record<TPaymentStatus, PaymentTone> = {
  ok: 'good',
  '30': 'late',
  '60': 'late',
  '90': 'bad',
  '120': 'bad',
  charge_off: 'bad',
  no_data: 'none',
};
/** The order the key lists grades in: best to worst, then "nothing reported". */
const KEY_ORDER: readonly TPaymentStatus[] = ['ok', '30', '60', '90', '120', 'charge_off', 'no_data'];
const MONTH_NUMBERS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'] as const;

export const isLate = (status: TPaymentStatus) => status !== 'ok' && status !== 'no_data';

/**
 * An account's monthly grades as bureaus print them: one row per year (newest first), January to December across.
 * Each cell's mark is hidden from screen readers and its meaning written out instead, so a reader hears
 * "March, 2026, paid on time" from the headers; months outside the window shown stay empty.
 */
export function PaymentHistoryGrid({ account, accountName }: { account: TCreditReportAccount; accountName: string }) {
  const t = useMessages(messages);
  const { formatDate } = useI18n();
  const captionId = useId();
  const byMonth = new Map(account.paymentHistory.map((entry) => [entry.month, entry.status]));
  const years = [...new Set(account.paymentHistory.map((entry) => entry.month.slice(0, 4)))].sort().reverse();
  const shown = new Set(account.paymentHistory.map((entry) => entry.status));
  const monthName = (month: string, style: 'short' | 'long') => formatDate(`2000-${month}-15`, { month: style });

  return (
    <div className="cw-pay">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: at 320 px the table scrolls here, not the page, so a keyboard must reach it; a named group, as a fieldset is for form controls. */}
      <div className="cw-pay__scroll" role="group" aria-labelledby={captionId} tabIndex={0}>
        <table className="cw-pay__table">
          <caption id={captionId} className="cw-visually-hidden">
            {t.historyCaption(accountName, account.paymentHistory.length)}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t.year}</th>
              {MONTH_NUMBERS.map((month) => (
                <th key={month} scope="col">
                  <span aria-hidden="true">{monthName(month, 'short')}</span>
                  <span className="cw-visually-hidden">{monthName(month, 'long')}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {years.map((year) => (
              <tr key={year}>
                <th scope="row">{year}</th>
                {MONTH_NUMBERS.map((month) => {
                  const status = byMonth.get(`${year}-${month}`);
                  if (!status) return <td key={month} className="cw-pay__cell cw-pay__cell--outside" />;
                  return (
                    <td key={month} className={`cw-pay__cell cw-pay__cell--${TONES[status]}`} data-status={status}>
                      <span aria-hidden="true">{SYMBOLS[status]}</span>
                      <span className="cw-visually-hidden">{t.paymentStatus[status]}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="cw-pay__key">
        <span className="cw-pay__key-label">{t.legend}:</span>
        <ul className="cw-pay__key-list">
          {KEY_ORDER.filter((status) => shown.has(status)).map((status) => (
            <li key={status}>
              <span aria-hidden="true" className={`cw-pay__cell cw-pay__cell--${TONES[status]} cw-pay__swatch`}>
                {SYMBOLS[status]}
              </span>{' '}
              {t.paymentStatus[status]}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
