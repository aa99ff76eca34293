import { describe, expect, it } from 'vitest';
import { fitRoute, routePath } from './flow-edge';

/** elk's route around a node: right, down, right (node borders at x 200 and 400). */
const route = [
  { x: 200, y: 36 },
  { x: 300, y: 36 },
  { x: 300, y: 200 },
  { x: 400, y: 200 },
];

describe('an edge along elk’s route', () => {
  it('ends on React Flow’s handles, first and last segments still straight', () => {
    expect(fitRoute(route, { x: 203, y: 36 }, { x: 397, y: 200 })).toEqual([
      { x: 203, y: 36 },
      { x: 300, y: 36 },
      { x: 300, y: 200 },
      { x: 397, y: 200 },
    ]);
  });

  it('is dropped once a node moved away from where the layout put it (a smooth step instead)', () => {
    expect(fitRoute(route, { x: 250, y: 90 }, { x: 397, y: 200 })).toBeNull();
    expect(fitRoute(undefined, { x: 203, y: 36 }, { x: 397, y: 200 })).toBeNull();
  });

  it('draws straight lines with rounded corners, the middle on the middle segment', () => {
    const [path, x, y] = routePath(route);
    expect(path).toBe('M 200 36 L 292 36 Q 300 36 300 44 L 300 192 Q 300 200 308 200 L 400 200');
    expect([x, y]).toEqual([300, 118]);
  });
});
