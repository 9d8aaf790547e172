import type { Queryable } from '../../db/db.ts';

export interface ClickRow {
  id: string;
  user_id: string;
  client_id: string;
  offer_id: string;
  offer_version: number | null;
  clicked_at: Date;
  recorded_at: Date;
}

export interface NewClick {
  id: string;
  userId: string;
  clientId: string;
  offerId: string;
  offerVersion: number;
  source: string | null;
  metadata: Record<string, unknown> | null;
  clickedAt: Date;
  recordedAt: Date;
}

const CLICK_COLUMNS = 'id, user_id, client_id, offer_id, offer_version, clicked_at, recorded_at';

export const insertClick = async (tx: Queryable, click: NewClick): Promise<void> => {
  await tx.query(
    `insert into offer_clicks (id, user_id, client_id, offer_id, offer_version, source, metadata, clicked_at, recorded_at)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
    [
      click.id,
      click.userId,
      click.clientId,
      click.offerId,
      click.offerVersion,
      click.source,
      click.metadata === null ? null : JSON.stringify(click.metadata),
      click.clickedAt,
      click.recordedAt,
    ],
  );
};

/** The user's most recent click on an offer (by when the user clicked, then when we recorded it). */
export const findLatestClick = async (
  tx: Queryable,
  clientId: string,
  userId: string,
  offerId: string,
): Promise<ClickRow | undefined> => {
  const { rows } = await tx.query<ClickRow>(
    `select ${CLICK_COLUMNS} from offer_clicks where client_id = $1 and user_id = $2 and offer_id = $3
     order by clicked_at desc, recorded_at desc, id desc limit 1`,
    [clientId, userId, offerId],
  );
  return rows[0];
};

/** A click of the client's whose user is not deleted, locked when `forUpdate` so two outcomes queue. */
export const findClick = async (
  tx: Queryable,
  clientId: string,
  clickId: string,
  forUpdate = false,
): Promise<(ClickRow & { external_user_id: string }) | undefined> => {
  const { rows } = await tx.query<ClickRow & { external_user_id: string }>(
    `select c.id, c.user_id, c.client_id, c.offer_id, c.offer_version, c.clicked_at, c.recorded_at, u.external_user_id
     from offer_clicks c join users u on u.id = c.user_id
     where c.client_id = $1 and c.id = $2 and u.deleted_at is null${forUpdate ? ' for update of c' : ''}`,
    [clientId, clickId],
  );
  return rows[0];
};

/** Any click of that id, for the sandbox landing page. */
export const findClickAnyClient = async (db: Queryable, clickId: string) => {
  const { rows } = await db.query<{ client_id: string; offer_id: string }>(
    'select client_id, offer_id from offer_clicks where id = $1',
    [clickId],
  );
  return rows[0];
};

export interface OutcomeRow {
  stage: string;
  amount: string | number | null;
  occurred_at: Date;
  converted_at: Date;
}

export const listOutcomes = async (tx: Queryable, clientId: string, clickId: string): Promise<OutcomeRow[]> => {
  const { rows } = await tx.query<OutcomeRow>(
    `select stage, amount, coalesce(occurred_at, converted_at) as occurred_at, converted_at from offer_conversions
     where client_id = $1 and click_id = $2
     order by converted_at, case stage when 'applied' then 1 when 'funded' then 3 else 2 end, id`,
    [clientId, clickId],
  );
  return rows;
};

export interface NewOutcome {
  id: string;
  clickId: string;
  userId: string;
  clientId: string;
  offerId: string;
  stage: string;
  amount: number | null;
  occurredAt: Date;
  recordedAt: Date;
}

export const insertOutcome = async (tx: Queryable, o: NewOutcome): Promise<void> => {
  await tx.query(
    `insert into offer_conversions (id, click_id, user_id, client_id, offer_id, stage, amount, occurred_at, converted_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [o.id, o.clickId, o.userId, o.clientId, o.offerId, o.stage, o.amount, o.occurredAt, o.recordedAt],
  );
};

/** Records the impressions new today; answers the offer ids that were. */
export const insertImpressions = async (
  tx: Queryable,
  clientId: string,
  userId: string,
  offerIds: readonly string[],
  day: string,
): Promise<string[]> => {
  const { rows } = await tx.query<{ offer_id: string }>(
    `insert into offer_impressions (client_id, offer_id, user_id, day)
     select $1, o, $2, $3 from unnest($4::text[]) as o order by o
     on conflict do nothing returning offer_id`,
    [clientId, userId, day, [...offerIds].sort()],
  );
  return rows.map((r) => r.offer_id);
};
