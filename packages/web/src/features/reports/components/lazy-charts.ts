import { lazy } from 'react';

// Recharts loads after the screen (decision 187); `ReportPanel` shows a placeholder until then.
export const BarChart = lazy(async () => ({ default: (await import('./charts')).BarChart }));
export const LineChart = lazy(async () => ({ default: (await import('./charts')).LineChart }));

const colors = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'red.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'indigo.6',
  'yellow.7',
];
/** The colour of the i-th series, the same on every chart. */
export const colorOf = (i: number) => colors[i % colors.length]!;
export const chartHeight = 260;

/** How a stage is named on a chart: with its pipeline when the project has several. */
export type StageLabel = (s: { stage: { name: string }; pipeline: { name: string } }) => string;
