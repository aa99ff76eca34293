import { describe, expect, it } from 'vitest';
import { createHistory, mapHistory, pushHistory, redoHistory, undoHistory } from './history';

describe('undo/redo history', () => {
  it('undoes and redoes in order', () => {
    let h = createHistory('a');
    h = pushHistory(h, 'b');
    h = pushHistory(h, 'c');
    h = undoHistory(h);
    expect(h.present).toBe('b');
    h = undoHistory(h);
    expect(h.present).toBe('a');
    expect(undoHistory(h)).toBe(h);
    h = redoHistory(h);
    h = redoHistory(h);
    expect(h.present).toBe('c');
    expect(redoHistory(h)).toBe(h);
  });

  it('drops the redo branch on a new change', () => {
    let h = pushHistory(pushHistory(createHistory(1), 2), 3);
    h = undoHistory(h);
    h = pushHistory(h, 4);
    expect(h.future).toEqual([]);
    expect(h.past).toEqual([1, 2]);
    expect(h.present).toBe(4);
  });

  it('keeps at most `cap` steps back', () => {
    let h = createHistory(0);
    for (let i = 1; i <= 150; i++) h = pushHistory(h, i, 100);
    expect(h.past).toHaveLength(100);
    expect(h.past[0]).toBe(50);
    expect(h.present).toBe(150);
  });

  it('ignores pushing the present again', () => {
    const h = createHistory('x');
    expect(pushHistory(h, 'x')).toBe(h);
  });

  it('rewrites every entry with mapHistory', () => {
    const h = undoHistory(pushHistory(pushHistory(createHistory('tmp_a'), 'tmp_b'), 'tmp_c'));
    const mapped = mapHistory(h, (v) => v.replace('tmp_', ''));
    expect(mapped).toEqual({ past: ['a'], present: 'b', future: ['c'] });
  });
});
