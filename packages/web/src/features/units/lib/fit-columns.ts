/** The name column's width range, and the stage columns' (decision 203). */
export const ColumnWidths = { name: { min: 160, max: 240 }, cell: { min: 88, max: 200 } };

/**
 * The matrix's column widths for a grid `width` px wide with `stages` stage columns (decision 203):
 * the stage columns share what the name column leaves, each between 88 and 200 px; the name column
 * gives up to 80 px so that the stage columns fit. When even the narrowest columns do not fit, the
 * grid scrolls sideways.
 */
export function fitColumns(width: number, stages: number): { name: number; cell: number } {
  const { name, cell } = ColumnWidths;
  if (stages === 0) return { name: name.max, cell: cell.max };
  const share = (nameWidth: number) => Math.floor((width - nameWidth) / stages);
  const roomy = share(name.max);
  if (roomy >= cell.min) return { name: name.max, cell: Math.min(roomy, cell.max) };
  const nameWidth = Math.max(name.min, width - stages * cell.min);
  return { name: nameWidth, cell: Math.max(cell.min, share(nameWidth)) };
}
