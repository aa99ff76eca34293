import type { TDrawingShape, TDrawingTool } from '@stageline/shared/review-sessions';

/** A point in the file's proportions (0–1 across, 0–1 down). */
export type TPoint = [number, number];

const clamp = (v: number) => Math.min(1, Math.max(0, v));
/** The point of a pointer event over an element, in the element's proportions. */
export function pointIn(element: Element, clientX: number, clientY: number): TPoint {
  const box = element.getBoundingClientRect();
  return [clamp((clientX - box.left) / (box.width || 1)), clamp((clientY - box.top) / (box.height || 1))];
}

/** The shape a drag from `from` to `to` makes with a tool (pen strokes grow point by point instead). */
export function dragShape(
  tool: Exclude<TDrawingTool, 'pen' | 'text'>,
  from: TPoint,
  to: TPoint,
  color: string,
  width: number,
): TDrawingShape {
  return { tool, from, to, color, width };
}

/** The two lines of an arrow's head at `to`, a tenth of its length. */
export function arrowHead(from: TPoint, to: TPoint, w = 1, h = 1): [TPoint, TPoint] {
  const dx = (to[0] - from[0]) * w;
  const dy = (to[1] - from[1]) * h;
  const length = Math.hypot(dx, dy) || 1;
  const size = Math.max(length / 6, 0.01 * Math.max(w, h));
  const angle = Math.atan2(dy, dx);
  const wing = (a: number): TPoint => [
    to[0] - (size * Math.cos(angle + a)) / w,
    to[1] - (size * Math.sin(angle + a)) / h,
  ];
  return [wing(Math.PI / 7), wing(-Math.PI / 7)];
}

/** Paints shapes over a canvas of `w` × `h` pixels (the PNG saved beside the comment). */
export function paintShapes(ctx: CanvasRenderingContext2D, shapes: readonly TDrawingShape[], w: number, h: number) {
  const scale = Math.max(w, h) / 1000;
  for (const shape of shapes) {
    ctx.strokeStyle = shape.color;
    ctx.fillStyle = shape.color;
    ctx.lineWidth = shape.width * scale * 2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    switch (shape.tool) {
      case 'pen':
        shape.points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x * w, y * h) : ctx.lineTo(x * w, y * h)));
        break;
      case 'rect':
        ctx.rect(
          shape.from[0] * w,
          shape.from[1] * h,
          (shape.to[0] - shape.from[0]) * w,
          (shape.to[1] - shape.from[1]) * h,
        );
        break;
      case 'ellipse':
        ctx.ellipse(
          ((shape.from[0] + shape.to[0]) / 2) * w,
          ((shape.from[1] + shape.to[1]) / 2) * h,
          (Math.abs(shape.to[0] - shape.from[0]) / 2) * w,
          (Math.abs(shape.to[1] - shape.from[1]) / 2) * h,
          0,
          0,
          Math.PI * 2,
        );
        break;
      case 'arrow': {
        const [a, b] = arrowHead(shape.from, shape.to, w, h);
        ctx.moveTo(shape.from[0] * w, shape.from[1] * h);
        ctx.lineTo(shape.to[0] * w, shape.to[1] * h);
        ctx.moveTo(a[0] * w, a[1] * h);
        ctx.lineTo(shape.to[0] * w, shape.to[1] * h);
        ctx.lineTo(b[0] * w, b[1] * h);
        break;
      }
      case 'text':
        ctx.font = `${Math.round(24 * scale * 2)}px sans-serif`;
        ctx.fillText(shape.text, shape.at[0] * w, shape.at[1] * h);
        continue;
    }
    ctx.stroke();
  }
}

/**
 * The drawing as a PNG: the frame or image under it, then the shapes, at the media's own size
 * (docs/review-sessions.md: saved beside the comment, so a digest or a webhook can show it).
 */
export async function drawingPng(
  media: HTMLImageElement | HTMLVideoElement,
  shapes: readonly TDrawingShape[],
): Promise<Blob | null> {
  const w = media instanceof HTMLVideoElement ? media.videoWidth : media.naturalWidth;
  const h = media instanceof HTMLVideoElement ? media.videoHeight : media.naturalHeight;
  if (!w || !h) return null;
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.drawImage(media, 0, 0, w, h);
  paintShapes(ctx, shapes, w, h);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}
