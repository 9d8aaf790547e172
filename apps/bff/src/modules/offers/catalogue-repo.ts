import type { Queryable } from '../../db/db.ts';
import type { CatalogueOffer, OfferBody, StoredStatus } from './catalogue.ts';

interface OfferRow {
  client_id: string;
  id: string;
  version: number;
  status: StoredStatus;
  body: OfferBody | string;
  starts_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'client_id, id, version, status, body, starts_at, expires_at, created_at, updated_at';

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

const toCatalogueOffer = (row: OfferRow): CatalogueOffer => ({
  clientId: row.client_id,
  offerId: row.id,
  version: Number(row.version),
  status: row.status,
  body: typeof row.body === 'string' ? (JSON.parse(row.body) as OfferBody) : row.body,
  startsAt: date(row.starts_at),
  expiresAt: date(row.expires_at),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Every offer of a client, newest first: a catalogue is tens of offers, read whole and cached. */
export const listClientOffers = async (db: Queryable, clientId: string): Promise<CatalogueOffer[]> => {
  const { rows } = await db.query<OfferRow>(
    `select ${COLUMNS} from offers where client_id = $1 order by created_at desc, id desc`,
    [clientId],
  );
  return rows.map(toCatalogueOffer);
};

export const lockOffer = async (tx: Queryable, clientId: string, offerId: string): Promise<CatalogueOffer | undefined> => {
  const { rows } = await tx.query<OfferRow>(`select ${COLUMNS} from offers where client_id = $1 and id = $2 for update`, [
    clientId,
    offerId,
  ]);
  return rows[0] && toCatalogueOffer(rows[0]);
};

export const findOffer = async (db: Queryable, clientId: string, offerId: string): Promise<CatalogueOffer | undefined> => {
  const { rows } = await db.query<OfferRow>(`select ${COLUMNS} from offers where client_id = $1 and id = $2`, [
    clientId,
    offerId,
  ]);
  return rows[0] && toCatalogueOffer(rows[0]);
};

/** Any client's offer of that id: for the sandbox landing page, which names the offer only. */
export const findOfferAnyClient = async (db: Queryable, offerId: string): Promise<CatalogueOffer | undefined> => {
  const { rows } = await db.query<OfferRow>(`select ${COLUMNS} from offers where id = $1 order by created_at limit 1`, [offerId]);
  return rows[0] && toCatalogueOffer(rows[0]);
};

/** Writes the offer as it now is, and its version as the customer will see it. */
export const saveOffer = async (tx: Queryable, offer: CatalogueOffer, isNew: boolean): Promise<void> => {
  const params = [
    offer.clientId,
    offer.offerId,
    offer.version,
    offer.status,
    JSON.stringify(offer.body),
    offer.startsAt,
    offer.expiresAt,
    offer.createdAt,
    offer.updatedAt,
  ];
  if (isNew) {
    await tx.query(`insert into offers (${COLUMNS}) values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`, params);
  } else {
    await tx.query(
      `update offers set version = $3, status = $4, body = $5::jsonb, starts_at = $6, expires_at = $7, updated_at = $9
       where client_id = $1 and id = $2 and created_at = $8`,
      params,
    );
  }
  await tx.query(
    `insert into offer_versions (client_id, offer_id, version, body, created_at) values ($1, $2, $3, $4::jsonb, $5)
     on conflict do nothing`,
    [offer.clientId, offer.offerId, offer.version, JSON.stringify(offer.body), offer.updatedAt],
  );
};

/** The body of the version a customer saw (clicks keep it). */
export const findOfferVersion = async (
  db: Queryable,
  clientId: string,
  offerId: string,
  version: number,
): Promise<OfferBody | undefined> => {
  const { rows } = await db.query<{ body: OfferBody | string }>(
    'select body from offer_versions where client_id = $1 and offer_id = $2 and version = $3',
    [clientId, offerId, version],
  );
  const body = rows[0]?.body;
  return typeof body === 'string' ? (JSON.parse(body) as OfferBody) : body;
};

/** Marks the client's sample catalogue as given; true only for the caller that did it. */
export const claimSampleCatalogue = async (tx: Queryable, clientId: string): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `update clients set sample_catalogue_seeded = true where id = $1 and environment = 'sandbox'
       and not sample_catalogue_seeded`,
    [clientId],
  );
  return rowCount > 0;
};

export const findClientAwaitingSamples = async (db: Queryable, clientId: string) => {
  const { rows } = await db.query<{ id: string; name: string }>(
    `select id, name from clients where id = $1 and environment = 'sandbox' and not sample_catalogue_seeded`,
    [clientId],
  );
  return rows[0];
};
