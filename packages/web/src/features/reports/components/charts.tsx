import '@mantine/charts/styles.css';

/**
 * The chart components of the reports, in a chunk of their own that the screen imports lazily
 * (decision 187): Recharts is most of its weight, and the screen's filters, numbers and tables draw
 * without waiting for it.
 */
export { BarChart, LineChart } from '@mantine/charts';
