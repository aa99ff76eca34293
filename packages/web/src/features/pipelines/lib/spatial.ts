/** A node's box on the canvas, for moving the keyboard focus between stages. */
export type TBox = { id: string; x: number; y: number; width: number; height: number };
export type TDirection = 'left' | 'right' | 'up' | 'down';

export const arrowDirections: Readonly<Record<string, TDirection>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

/**
 * The node the focus moves to from `fromId` when an arrow key is pressed: the nearest one whose
 * centre lies in that direction (within 45° either side of it), nearer along the arrow first and a
 * sideways offset counting double, so ↓ picks the stage below rather than one far off to the side.
 * Null when nothing lies that way (the focus stays).
 */
export function nearestInDirection(boxes: readonly TBox[], fromId: string, direction: TDirection): string | null {
  const from = boxes.find((b) => b.id === fromId);
  if (!from) return null;
  const cx = from.x + from.width / 2;
  const cy = from.y + from.height / 2;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const box of boxes) {
    if (box.id === fromId) continue;
    const dx = box.x + box.width / 2 - cx;
    const dy = box.y + box.height / 2 - cy;
    const along = direction === 'right' ? dx : direction === 'left' ? -dx : direction === 'down' ? dy : -dy;
    const across = Math.abs(direction === 'left' || direction === 'right' ? dy : dx);
    if (along <= 0 || across > along) continue;
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = box.id;
    }
  }
  return best;
}

/** The grid step of moving a stage with Shift+arrow, the canvas background's dot spacing. */
export const GridStep = 20;

/** The offset of one Shift+arrow step. */
export function stepOffset(direction: TDirection, step = GridStep): { dx: number; dy: number } {
  if (direction === 'left') return { dx: -step, dy: 0 };
  if (direction === 'right') return { dx: step, dy: 0 };
  if (direction === 'up') return { dx: 0, dy: -step };
  return { dx: 0, dy: step };
}
