/** What other features use of CSV: the routes, and sending a table as a CSV file (with the formula guard). */
export { csvFile, csvRoutes, sendCsv } from './routes';
export type { CsvExport } from './export';
