import { useId } from 'react';
import { useI18n, useMessages } from '../i18n/index.ts';
import { ratingForScore } from '../score/bands.ts';
import { messages as scoreMessages } from '../score/messages.ts';
import type { HistoryPoint } from './HistoryChart.tsx';
import { messages } from './messages.ts';

/** The figures of the chart as a table, newest first: the chart's text alternative. `points` are oldest first. */
export function HistoryTable({ points, months }: { points: HistoryPoint[]; months: number }) {
  const t = useMessages(messages);
  const ratings = useMessages(scoreMessages).ratings;
  const { formatDate, formatNumber } = useI18n();
  const newestFirst = [...points].reverse();
  const captionId = useId();
  return (
    // A long header word ("Calificación") can outgrow a 280 px frame: the table then scrolls, not the whole widget.
    // Focusable and named, so a keyboard can scroll it and a screen reader says what it holds.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="cw-history-table-scroll" aria-labelledby={captionId} tabIndex={0}>
      <table className="cw-history-table">
        <caption id={captionId}>{t.tableCaption(months)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.date}</th>
            <th scope="col">{t.score}</th>
            <th scope="col">{t.rating}</th>
            <th scope="col">{t.change}</th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((point, index) => {
            const previous = newestFirst[index + 1];
            const change = previous ? point.score - previous.score : null;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a refresh can add a second score on the same day; the position is the identity.
              <tr key={index}>
                <th scope="row">{formatDate(point.date, { dateStyle: 'medium' })}</th>
                <td>{formatNumber(point.score)}</td>
                <td>{ratings[ratingForScore(point.score)]}</td>
                <td>
                  {change === null
                    ? t.firstMonth
                    : change === 0
                      ? t.noChange
                      : change > 0
                        ? t.changeUp(change, formatNumber(change))
                        : t.changeDown(-change, formatNumber(-change))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
