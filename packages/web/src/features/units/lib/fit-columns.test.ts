import { describe, expect, it } from 'vitest';
import { ColumnWidths, fitColumns } from './fit-columns';

describe('fitColumns', () => {
  it('shares the width among the stage columns, up to the widest', () => {
    expect(fitColumns(1000, 4)).toEqual({ name: 240, cell: 190 });
    expect(fitColumns(1600, 4)).toEqual({ name: 240, cell: ColumnWidths.cell.max });
  });

  it('fits 8 stage columns in the grid a 1280 px screen leaves beside the sidebar', () => {
    // 1280 − sidebar 240 − padding 48 − card 42 − borders − a vertical scrollbar.
    const { name, cell } = fitColumns(933, 8);
    expect(name + 8 * cell).toBeLessThanOrEqual(933);
    expect(cell).toBeGreaterThanOrEqual(ColumnWidths.cell.min);
    // The name column gives way first, so the stage columns keep more of their words.
    expect(name).toBe(ColumnWidths.name.min);
    expect(cell).toBe(96);
  });

  it('keeps the narrowest columns and lets the grid scroll when even they do not fit', () => {
    const { name, cell } = fitColumns(600, 12);
    expect(name).toBe(ColumnWidths.name.min);
    expect(cell).toBe(ColumnWidths.cell.min);
  });
});
