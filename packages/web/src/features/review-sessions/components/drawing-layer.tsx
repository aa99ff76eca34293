import { useRef, useState } from 'react';
import type { TDrawingShape, TDrawingTool } from '@stageline/shared/review-sessions';
import { arrowHead, pointIn, type TPoint } from '../lib/shapes';

/** One shape in SVG, in the 0–1 box the layer is drawn in. */
function Shape({ shape }: { shape: TDrawingShape }) {
  const stroke = {
    stroke: shape.color,
    strokeWidth: shape.width,
    fill: 'none',
    vectorEffect: 'non-scaling-stroke' as const,
  };
  switch (shape.tool) {
    case 'pen':
      return (
        <polyline points={shape.points.map(([x, y]) => `${x},${y}`).join(' ')} {...stroke} strokeLinecap="round" />
      );
    case 'rect':
      return (
        <rect
          x={Math.min(shape.from[0], shape.to[0])}
          y={Math.min(shape.from[1], shape.to[1])}
          width={Math.abs(shape.to[0] - shape.from[0])}
          height={Math.abs(shape.to[1] - shape.from[1])}
          {...stroke}
        />
      );
    case 'ellipse':
      return (
        <ellipse
          cx={(shape.from[0] + shape.to[0]) / 2}
          cy={(shape.from[1] + shape.to[1]) / 2}
          rx={Math.abs(shape.to[0] - shape.from[0]) / 2}
          ry={Math.abs(shape.to[1] - shape.from[1]) / 2}
          {...stroke}
        />
      );
    case 'arrow': {
      const [a, b] = arrowHead(shape.from, shape.to);
      return (
        <polyline
          points={`${shape.from.join(',')} ${shape.to.join(',')} ${a.join(',')} ${shape.to.join(',')} ${b.join(',')}`}
          {...stroke}
          strokeLinejoin="round"
        />
      );
    }
    case 'text':
      return null;
  }
}

/**
 * Shapes over a file (docs/review-sessions.md): SVG in the file's proportions for lines, HTML for
 * text (so it keeps its size). While `tool` is set, dragging draws one more shape, a click with the
 * text tool places `text`.
 */
export function DrawingLayer({
  shapes,
  tool,
  color,
  width,
  text,
  onAdd,
}: {
  shapes: readonly TDrawingShape[];
  tool: TDrawingTool | null;
  color: string;
  width: number;
  text: string;
  onAdd: (shape: TDrawingShape) => void;
}) {
  const ref = useRef<HTMLDivElement | null>(null);
  const [draft, setDraft] = useState<TDrawingShape | null>(null);
  const start = useRef<TPoint | null>(null);
  const at = (event: React.PointerEvent) => pointIn(ref.current!, event.clientX, event.clientY);
  const all = draft ? [...shapes, draft] : shapes;
  return (
    <div
      ref={ref}
      data-testid="drawing-layer"
      data-shapes={shapes.length}
      style={{
        position: 'absolute',
        inset: 0,
        cursor: tool ? 'crosshair' : 'default',
        pointerEvents: tool ? 'auto' : 'none',
        touchAction: 'none',
      }}
      onPointerDown={(event) => {
        if (!tool) return;
        event.currentTarget.setPointerCapture(event.pointerId);
        const point = at(event);
        if (tool === 'text') {
          if (text.trim()) onAdd({ tool, at: point, text: text.trim(), color, width });
          return;
        }
        start.current = point;
        setDraft(
          tool === 'pen' ? { tool, points: [point], color, width } : { tool, from: point, to: point, color, width },
        );
      }}
      onPointerMove={(event) => {
        if (!draft || !start.current) return;
        const point = at(event);
        setDraft(
          draft.tool === 'pen'
            ? { ...draft, points: [...draft.points, point] }
            : draft.tool === 'text'
              ? draft
              : { ...draft, to: point },
        );
      }}
      onPointerUp={() => {
        if (draft) onAdd(draft);
        setDraft(null);
        start.current = null;
      }}
    >
      <svg
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        width="100%"
        height="100%"
        style={{ position: 'absolute', inset: 0 }}
      >
        {all.map((shape, i) => (
          <Shape key={i} shape={shape} />
        ))}
      </svg>
      {all.map((shape, i) =>
        shape.tool === 'text' ? (
          <span
            key={`text-${i}`}
            style={{
              position: 'absolute',
              left: `${shape.at[0] * 100}%`,
              top: `${shape.at[1] * 100}%`,
              transform: 'translateY(-100%)',
              color: shape.color,
              fontWeight: 700,
              textShadow: '0 0 2px #000',
              whiteSpace: 'nowrap',
            }}
          >
            {shape.text}
          </span>
        ) : null,
      )}
    </div>
  );
}
