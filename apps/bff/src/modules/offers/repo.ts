import type { Queryable } from '../../db/db.ts';

export interface ClickRow {
  id: string;
  user_id: string;
  client_id: string;
  offer_id: string;
  clicked_at: Date;
  recorded_at: Date;
}

export interface NewClick {
  id: string;
  userId: string;
  clientId: string;
  offerId: string;
  source: string | null;
  metadata: Record<string, unknown> | null;
  clickedAt: Date;
  recordedAt: Date;
}

export const insertClick = async (tx: Queryable, click: NewClick): Promise<void> => {
  await tx.query(
    `insert into offer_clicks (id, user_id, client_id, offer_id, source, metadata, clicked_at, recorded_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
    [
      click.id,
      click.userId,
      click.clientId,
      click.offerId,
      click.source,
      click.metadata === null ? null : JSON.stringify(click.metadata),
      click.clickedAt,
      click.recordedAt,
    ],
  );
};

/**
 * The user's most recent click on an offer (by when the user clicked, then when we recorded it),
 * locked so two conversions of it cannot both be written.
 */
export const lockLatestClick = async (
  tx: Queryable,
  clientId: string,
  userId: string,
  offerId: string,
): Promise<ClickRow | undefined> => {
  const { rows } = await tx.query<ClickRow>(
    `select id, user_id, client_id, offer_id, clicked_at, recorded_at from offer_clicks
     where client_id = $1 and user_id = $2 and offer_id = $3
     order by clicked_at desc, recorded_at desc, id desc
     limit 1
     for update`,
    [clientId, userId, offerId],
  );
  return rows[0];
};

export interface ConversionRow {
  id: string;
  click_id: string;
  converted_at: Date;
}

export const findConversionOfClick = async (
  tx: Queryable,
  clientId: string,
  clickId: string,
): Promise<ConversionRow | undefined> => {
  const { rows } = await tx.query<ConversionRow>(
    'select id, click_id, converted_at from offer_conversions where client_id = $1 and click_id = $2',
    [clientId, clickId],
  );
  return rows[0];
};

export interface NewConversion {
  id: string;
  clickId: string;
  userId: string;
  clientId: string;
  offerId: string;
  convertedAt: Date;
}

export const insertConversion = async (tx: Queryable, c: NewConversion): Promise<void> => {
  await tx.query(
    `insert into offer_conversions (id, click_id, user_id, client_id, offer_id, converted_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [c.id, c.clickId, c.userId, c.clientId, c.offerId, c.convertedAt],
  );
};
