interface HistoryMessages {
  heading: string;
  loading: string;
  loadingChart: string;
  rangeLabel: string;
  range: (months: number) => string;
  showTable: string;
  showChart: string;
  empty: string;
  summary: (from: string, fromDate: string, to: string, toDate: string, change: string) => string;
  extremes: (highest: string, lowest: string) => string;
  changeUp: (points: string) => string;
  changeDown: (points: string) => string;
  noChange: string;
  tableCaption: (months: number) => string;
  month: string;
  score: string;
  rating: string;
  change: string;
  firstMonth: string;
  chartUnavailable: string;
}

export const messages: { en: HistoryMessages; es: HistoryMessages } = {
  en: {
    heading: 'Score history',
    loading: 'Loading your score history…',
    loadingChart: 'Loading the chart…',
    rangeLabel: 'Time range',
    range: (months) => `${months} months`,
    showTable: 'Show as table',
    showChart: 'Show as chart',
    empty: 'There is no score history yet. Your monthly scores will appear here.',
    summary: (from, fromDate, to, toDate, change) => `From ${from} in ${fromDate} to ${to} in ${toDate}: ${change}.`,
    extremes: (highest, lowest) => `Highest ${highest}, lowest ${lowest}.`,
    changeUp: (points) => `up ${points} points`,
    changeDown: (points) => `down ${points} points`,
    noChange: 'no change',
    tableCaption: (months) => `Your score by month, last ${months} months`,
    month: 'Month',
    score: 'Score',
    rating: 'Rating',
    change: 'Change',
    firstMonth: 'First month shown',
    chartUnavailable: 'The chart could not be loaded, so your history is shown as a table.',
  },
  es: {
    heading: 'Historial del puntaje',
    loading: 'Cargando el historial de su puntaje…',
    loadingChart: 'Cargando el gráfico…',
    rangeLabel: 'Periodo',
    range: (months) => `${months} meses`,
    showTable: 'Ver como tabla',
    showChart: 'Ver como gráfico',
    empty: 'Todavía no hay historial de puntaje. Aquí aparecerán sus puntajes mensuales.',
    summary: (from, fromDate, to, toDate, change) => `De ${from} en ${fromDate} a ${to} en ${toDate}: ${change}.`,
    extremes: (highest, lowest) => `Máximo ${highest}, mínimo ${lowest}.`,
    changeUp: (points) => `subió ${points} puntos`,
    changeDown: (points) => `bajó ${points} puntos`,
    noChange: 'sin cambios',
    tableCaption: (months) => `Su puntaje por mes, últimos ${months} meses`,
    month: 'Mes',
    score: 'Puntaje',
    rating: 'Calificación',
    change: 'Cambio',
    firstMonth: 'Primer mes mostrado',
    chartUnavailable: 'No se pudo cargar el gráfico, así que su historial se muestra como tabla.',
  },
};
