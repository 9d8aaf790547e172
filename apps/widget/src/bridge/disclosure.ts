import type { WidgetDisclosure, WidgetEvent, WidgetScoreBand, WidgetScoreDisclosure } from '@credit/contract/widget-protocol';

/** What the frame knows about a score before the disclosure setting decides what the host may hear of it. */
export interface ShownScore {
  userId: string;
  score: number;
  band: WidgetScoreBand;
}

/**
 * The one place score information leaves the frame: builds the event's data from the client's setting, so a
 * field the setting withholds is never in the message (not null, not hidden: absent). `none` says nothing
 * about the score, `band` its rating band, `exact` the band and the number.
 */
export const disclosedScore = (disclosure: WidgetDisclosure, shown: ShownScore): WidgetScoreDisclosure => {
  const data: WidgetScoreDisclosure = { userId: shown.userId, disclosure };
  if (disclosure === 'band' || disclosure === 'exact') data.band = shown.band;
  if (disclosure === 'exact') data.score = shown.score;
  return data;
};

/**
 * A last check on every event before it is posted: score events are rebuilt under the setting, whatever the
 * screen put in them. The setting comes from the server (the session exchange), never from the host page;
 * without a session yet the frame discloses nothing.
 */
export const applyDisclosure = (event: WidgetEvent, disclosure: WidgetDisclosure | undefined): WidgetEvent => {
  if (event.name !== 'score_loaded' && event.name !== 'score_refreshed') return event;
  const { userId, band, score } = event.data;
  const setting = disclosure ?? 'none';
  if (band === undefined || score === undefined) return { name: event.name, data: { userId, disclosure: setting } };
  return { name: event.name, data: disclosedScore(setting, { userId, band, score }) };
};
