import type { TProgramResults } from '@credit/contract';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartLine {
  key: 'enrolled' | 'looked' | 'clicks' | 'applications' | 'funded';
  label: string;
  color: string;
}

/**
 * The Program page's line chart: its own chunk with the chart library (most of the console's weight), loaded only
 * when the page draws it, so signing in and every other page download none of it.
 */
const ProgramChart = ({ results, lines }: { results: TProgramResults; lines: readonly ChartLine[] }) => (
  <ResponsiveContainer width="100%" height="100%">
    <LineChart data={results.series} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
      <CartesianGrid stroke="#d9dce3" strokeDasharray="3 3" />
      <XAxis dataKey="start" tick={{ fontSize: 12 }} minTickGap={24} />
      <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
      <Tooltip />
      <Legend />
      {lines.map((m) => (
        <Line
          key={m.key}
          type="monotone"
          dataKey={m.key}
          name={m.label}
          stroke={m.color}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  </ResponsiveContainer>
);

export default ProgramChart;
