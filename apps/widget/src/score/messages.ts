import type { TCreditRating, TCreditTrend } from '@credit/contract';

type TrendPeriod = TCreditTrend['period'];

interface ScoreMessages {
  heading: string;
  loading: string;
  ratings: Record<TCreditRating, string>;
  ratingMeaning: Record<TCreditRating, string>;
  /** Lower case, as it follows the rating in "712, Good, up 8 points in 3 months". */
  trend: (trend: TCreditTrend, points: string) => string;
  dialLabel: (score: string, rating: string, min: string, max: string, bandMin: string, bandMax: string) => string;
  bandsHeading: string;
  yourBand: string;
  range: (min: string, max: string) => string;
  refresh: string;
  refreshing: string;
  /** `previous` is null when the user had no score before. */
  refreshed: (score: string, previous: string | null) => string;
  refreshFailed: string;
  nextRefresh: (when: string) => string;
  /** When the file on record was pulled, and when the next scheduled pull is due (null: none scheduled). */
  updated: (when: string, next: string | null) => string;
}

const EN_PERIODS: Record<TrendPeriod, string> = {
  '1month': '1 month',
  '3months': '3 months',
  '6months': '6 months',
  '12months': '12 months',
};
const ES_PERIODS: Record<TrendPeriod, string> = {
  '1month': '1 mes',
  '3months': '3 meses',
  '6months': '6 meses',
  '12months': '12 meses',
};

export const messages: { en: ScoreMessages; es: ScoreMessages } = {
  en: {
    heading: 'Credit score',
    loading: 'Loading your credit score…',
    ratings: { very_poor: 'Very poor', poor: 'Poor', fair: 'Fair', good: 'Good', excellent: 'Excellent' },
    ratingMeaning: {
      very_poor: 'Lenders see a high risk. Paying every bill on time is the fastest way to start improving.',
      poor: 'Many lenders may turn down applications or charge high rates. Steady on-time payments help most.',
      fair: 'You can get credit, though often at higher rates than people with good scores.',
      good: 'Most lenders consider you a reliable borrower and offer standard rates.',
      excellent: 'Lenders consider you a very low risk, so you qualify for their best rates.',
    },
    trend: ({ direction, change, period }, points) =>
      direction === 'stable' || change === 0
        ? `no change in ${EN_PERIODS[period]}`
        : `${direction === 'up' ? 'up' : 'down'} ${points} ${Math.abs(change) === 1 ? 'point' : 'points'} in ${EN_PERIODS[period]}`,
    dialLabel: (score, rating, min, max, bandMin, bandMax) =>
      `Score gauge from ${min} to ${max}, showing ${score}, in the ${rating} range (${bandMin} to ${bandMax})`,
    bandsHeading: 'Score ranges',
    yourBand: 'your score',
    range: (min, max) => `${min}–${max}`,
    refresh: 'Refresh score',
    refreshing: 'Refreshing…',
    refreshed: (score, previous) => (previous ? `Score refreshed: ${score}, was ${previous}.` : `Score refreshed: ${score}.`),
    refreshFailed: 'Your score could not be refreshed. Please try again later.',
    nextRefresh: (when) => `Next refresh available ${when}.`,
    updated: (when, next) => (next ? `Updated ${when}. Next update ${next}.` : `Updated ${when}.`),
  },
  es: {
    heading: 'Puntaje de crédito',
    loading: 'Cargando su puntaje de crédito…',
    ratings: { very_poor: 'Muy malo', poor: 'Malo', fair: 'Regular', good: 'Bueno', excellent: 'Excelente' },
    ratingMeaning: {
      very_poor:
        'Los prestamistas ven un riesgo alto. Pagar todas sus cuentas a tiempo es la forma más rápida de empezar a mejorar.',
      poor: 'Muchos prestamistas pueden rechazar solicitudes o cobrar tasas altas. Los pagos puntuales constantes son lo que más ayuda.',
      fair: 'Puede obtener crédito, aunque a menudo con tasas más altas que las personas con un buen puntaje.',
      good: 'La mayoría de los prestamistas lo consideran un prestatario confiable y le ofrecen tasas estándar.',
      excellent: 'Los prestamistas lo consideran de muy bajo riesgo, así que califica para sus mejores tasas.',
    },
    trend: ({ direction, change, period }, points) =>
      direction === 'stable' || change === 0
        ? `sin cambios en ${ES_PERIODS[period]}`
        : `${direction === 'up' ? 'subió' : 'bajó'} ${points} ${Math.abs(change) === 1 ? 'punto' : 'puntos'} en ${ES_PERIODS[period]}`,
    dialLabel: (score, rating, min, max, bandMin, bandMax) =>
      `Indicador de puntaje de ${min} a ${max}: muestra ${score}, en el rango ${rating} (${bandMin} a ${bandMax})`,
    bandsHeading: 'Rangos de puntaje',
    yourBand: 'su puntaje',
    range: (min, max) => `${min}–${max}`,
    refresh: 'Actualizar puntaje',
    refreshing: 'Actualizando…',
    refreshed: (score, previous) =>
      previous ? `Puntaje actualizado: ${score}, antes ${previous}.` : `Puntaje actualizado: ${score}.`,
    refreshFailed: 'No se pudo actualizar su puntaje. Inténtelo de nuevo más tarde.',
    nextRefresh: (when) => `Podrá actualizarlo de nuevo el ${when.replace(/\.$/, '')}.`,
    updated: (when, next) => (next ? `Actualizado el ${when}. Próxima actualización: ${next}.` : `Actualizado el ${when}.`),
  },
};
