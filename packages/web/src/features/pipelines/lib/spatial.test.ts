import { describe, expect, it } from 'vitest';
import { nearestInDirection, stepOffset, type TBox } from './spatial';

const box = (id: string, x: number, y: number): TBox => ({ id, x, y, width: 100, height: 40 });
// start → a → b in a row, c below a, d far off up and right.
const boxes = [box('start', 0, 0), box('a', 200, 0), box('b', 400, 10), box('c', 200, 200), box('d', 420, -400)];

describe('nearestInDirection', () => {
  it('moves along the row', () => {
    expect(nearestInDirection(boxes, 'start', 'right')).toBe('a');
    expect(nearestInDirection(boxes, 'a', 'right')).toBe('b');
    expect(nearestInDirection(boxes, 'b', 'left')).toBe('a');
  });
  it('moves down and up, preferring what is straight that way', () => {
    expect(nearestInDirection(boxes, 'a', 'down')).toBe('c');
    expect(nearestInDirection(boxes, 'c', 'up')).toBe('a');
    expect(nearestInDirection(boxes, 'b', 'up')).toBe('d');
  });
  it('stays when nothing lies that way', () => {
    expect(nearestInDirection(boxes, 'start', 'left')).toBeNull();
    expect(nearestInDirection(boxes, 'c', 'down')).toBeNull();
    expect(nearestInDirection(boxes, 'missing', 'down')).toBeNull();
  });
});

describe('stepOffset', () => {
  it('steps one grid cell', () => {
    expect(stepOffset('left')).toEqual({ dx: -20, dy: 0 });
    expect(stepOffset('down', 5)).toEqual({ dx: 0, dy: 5 });
  });
});
