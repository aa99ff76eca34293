/**
 * The name column's width range, and the stage columns': `comfortable` holds most status words
 * whole, `min` a short one and an avatar (decision 203).
 */
export const ColumnWidths = { name: { min: 160, max: 240 }, cell: { min: 88, comfortable: 112, max: 200 } };

/**
 * The matrix's column widths for a grid `width` px wide with `stages` stage columns (decision 203):
 * the stage columns share what the name column leaves, up to 200 px each; when that is under 112 px
 * the name column first gives up to 80 px to them; when they would still be under 88 px they stay at
 * 88 and the grid scrolls sideways.
 */
export function fitColumns(width: number, stages: number): { name: number; cell: number } {
  const { name, cell } = ColumnWidths;
  if (stages === 0) return { name: name.max, cell: cell.max };
  const share = (nameWidth: number) => Math.floor((width - nameWidth) / stages);
  if (share(name.max) >= cell.comfortable) return { name: name.max, cell: Math.min(share(name.max), cell.max) };
  const nameWidth = Math.max(name.min, Math.min(name.max, width - stages * cell.comfortable));
  if (share(nameWidth) >= cell.min) return { name: nameWidth, cell: share(nameWidth) };
  return { name: name.min, cell: cell.min };
}
