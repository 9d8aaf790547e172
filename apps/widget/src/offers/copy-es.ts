import type { TOffer, TOfferType } from '@credit/contract';

/**
 * Offers' own texts come from the API in English. The sandbox catalogue's offers are known here by id and
 * read in Spanish; any other offer gets a general description of its type rather than English mid-page.
 */
const DESCRIPTIONS: Record<string, string> = {
  off_nwbCashBack001: '1.5% de reembolso ilimitado en todas las compras y 3% en supermercados, sin cuota anual.',
  off_nwbTravelPlus01:
    'Puntos triples en viajes y restaurantes, acceso a salas VIP de aeropuertos y sin comisiones por transacciones en el extranjero.',
  off_ctsPlatinumBT01:
    'APR introductoria del 0% en transferencias de saldo durante 18 meses (comisión del 3%), luego la APR variable estándar.',
  off_ctsStudent0001:
    'Pensada para su primera tarjeta: 1% de reembolso, actualizaciones mensuales gratuitas del puntaje y un límite mayor tras 6 pagos puntuales.',
  off_fcuSecured0001:
    'Una tarjeta garantizada para crear o reconstruir su crédito: su depósito fija el límite y se reporta a las tres agencias.',
  off_wgbRewards0001: 'Puntos dobles en gasolineras y restaurantes, 1 punto en todo lo demás; los puntos no vencen.',
  off_wgbPremier0001:
    'Tarjeta de viaje premium con un crédito anual de viaje de $300 y 5 puntos por dólar en vuelos reservados con Woodgrove.',
  off_nwbPersonal001: 'Préstamo personal a tasa fija de $2,000 a $50,000 a 2 a 7 años, sin comisión de apertura.',
  off_fcuDebtConsol1:
    'Reúna los saldos de sus tarjetas en un solo pago mensual fijo; podemos pagar directamente a sus otros acreedores.',
  off_ctsAutoLoan001: 'Financie un auto nuevo o usado hasta 84 meses; descuento en la tasa con pagos automáticos.',
  off_fcuAutoRefi001: 'Refinancie su préstamo de auto actual y reduzca su pago mensual; sin pagos durante los primeros 60 días.',
  off_wgbStarterLn01:
    'Un préstamo pequeño a tasa fija para historiales de crédito escasos o en reconstrucción; los pagos puntuales se reportan cada mes.',
  off_ctsHolidayLn01: 'Préstamo a tasa fija por tiempo limitado para gastos de temporada, a pagar en 12 a 36 meses.',
  off_tspFixed30yr01: 'Hipoteca convencional a tasa fija a 30 años para compra o refinanciamiento, desde un 5% de enganche.',
  off_tspFixed15yr01: 'Termine de pagar su casa antes: tasa fija a 15 años con menos interés total que un préstamo a 30 años.',
  off_tspFhaLoan0001:
    'Préstamo FHA asegurado por el gobierno con un 3.5% de enganche, para quienes compran por primera vez y con crédito moderado.',
  off_wgbArm71000001: 'Tasa fija durante los primeros 7 años y luego ajustable cada año; montos jumbo disponibles.',
};

const REQUIREMENTS: Record<string, string> = {
  off_nwbCashBack001: 'Gaste $500 en los primeros 3 meses',
  off_nwbTravelPlus01: 'Gaste $4,000 en los primeros 3 meses',
  off_ctsStudent0001: 'Haga su primera compra en los primeros 3 meses',
  off_wgbRewards0001: 'Gaste $1,000 en los primeros 90 días',
  off_wgbPremier0001: 'Gaste $6,000 en los primeros 6 meses',
  off_fcuAutoRefi001: 'Refinancie un saldo de $10,000 o más',
};

const GENERAL: Record<TOfferType, string> = {
  credit_card: 'Una tarjeta de crédito acorde con su perfil. Consulte todas las condiciones en la solicitud.',
  loan: 'Un préstamo acorde con su perfil. Consulte todas las condiciones en la solicitud.',
  mortgage: 'Una hipoteca acorde con su perfil. Consulte todas las condiciones en la solicitud.',
};

export const descriptionEs = (offer: TOffer): string => DESCRIPTIONS[offer.offerId] ?? GENERAL[offer.type];

/** The bonus condition in Spanish, or null when only the API's English is known. */
export const requirementEs = (offer: TOffer): string | null => REQUIREMENTS[offer.offerId] ?? null;
