import type { TOffer, TOfferType } from '@credit/contract';

/**
 * A bank writes its offers' texts in English. The sandbox's sample catalogue is read in Spanish here, matched on the
 * English text itself (every bank gets the same texts under its own offer ids, and an edited text no longer matches);
 * any other offer gets a general description of its type rather than English mid-page.
 */
const DESCRIPTIONS: Record<string, string> = {
  'Unlimited 1.5% cash back on every purchase, 3% at grocery stores, and no annual fee.':
    '1.5% de reembolso ilimitado en todas las compras y 3% en supermercados, sin cuota anual.',
  '0% intro APR on balance transfers for 15 months (3% transfer fee), then the standard variable APR.':
    'APR introductoria del 0% en transferencias de saldo durante 15 meses (comisión del 3%), luego la APR variable estándar.',
  'A secured card to build or rebuild credit: your deposit sets the line, reported to all three bureaus.':
    'Una tarjeta garantizada para crear o reconstruir su crédito: su depósito fija el límite y se reporta a las tres agencias.',
  'One fixed monthly payment for your card and loan balances; we can pay your other lenders directly.':
    'Un solo pago mensual fijo para los saldos de sus tarjetas y préstamos; podemos pagar directamente a sus otros acreedores.',
  'Move your car loan to us for a lower rate; no payments for the first 60 days.':
    'Traiga su préstamo de auto con nosotros a una tasa menor; sin pagos durante los primeros 60 días.',
  'Refinance your home at a fixed rate for 30 years.': 'Refinancie su casa a una tasa fija durante 30 años.',
  'Pay your home off sooner: a 15-year fixed rate, with less interest over the loan than a 30-year one.':
    'Termine de pagar su casa antes: tasa fija a 15 años, con menos interés total que un préstamo a 30 años.',
  'Combine federal and private student loans into one fixed-rate loan over 10 years.':
    'Reúna sus préstamos estudiantiles federales y privados en un solo préstamo a tasa fija a 10 años.',
};

const REQUIREMENTS: Record<string, string> = {
  'Spend $500 in the first 3 months': 'Gaste $500 en los primeros 3 meses',
};

const GENERAL: Record<TOfferType, string> = {
  credit_card: 'Una tarjeta de crédito acorde con su perfil. Consulte todas las condiciones en la solicitud.',
  loan: 'Un préstamo acorde con su perfil. Consulte todas las condiciones en la solicitud.',
  mortgage: 'Una hipoteca acorde con su perfil. Consulte todas las condiciones en la solicitud.',
};

const own = (table: Record<string, string>, key: string): string | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

export const descriptionEs = (offer: TOffer): string => own(DESCRIPTIONS, offer.description) ?? GENERAL[offer.type];

/** The bonus condition in Spanish, or null when only the bank's English is known. */
export const requirementEs = (offer: TOffer): string | null =>
  offer.signupBonus ? (own(REQUIREMENTS, offer.signupBonus.requirement) ?? null) : null;
