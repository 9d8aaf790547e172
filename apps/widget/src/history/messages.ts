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
  changeUp: (count: number, points: string) => string;
  changeDown: (count: number, points: string) => string;
  noChange: string;
  tableCaption: (months: number) => string;
  date: string;
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
    changeUp: (count, points) => `up ${points} ${count === 1 ? 'point' : 'points'}`,
    changeDown: (count, points) => `down ${points} ${count === 1 ? 'point' : 'points'}`,
    noChange: 'no change',
    tableCaption: (months) => `Your scores over the last ${months} months`,
    date: 'Date',
    score: 'Score',
    rating: 'Rating',
    change: 'Change',
    firstMonth: 'First score shown',
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
    changeUp: (count, points) => `subió ${points} ${count === 1 ? 'punto' : 'puntos'}`,
    changeDown: (count, points) => `bajó ${points} ${count === 1 ? 'punto' : 'puntos'}`,
    noChange: 'sin cambios',
    tableCaption: (months) => `Sus puntajes de los últimos ${months} meses`,
    date: 'Fecha',
    score: 'Puntaje',
    rating: 'Calificación',
    change: 'Cambio',
    firstMonth: 'Primer puntaje mostrado',
    chartUnavailable: 'No se pudo cargar el gráfico, así que su historial se muestra como tabla.',
  },
};
