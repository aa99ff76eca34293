import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { statusFill } from '../../../shared/ui/status-colors';

type SketchNode = {
  id: string;
  x: number;
  y: number;
  label: string;
  status: 'done' | 'review' | 'in_progress' | 'todo' | 'edge';
};

const nodes: SketchNode[] = [
  { id: 'start', x: 20, y: 110, label: 'Start', status: 'edge' },
  { id: 'model', x: 130, y: 50, label: 'Model', status: 'done' },
  { id: 'rig', x: 130, y: 170, label: 'Rig', status: 'review' },
  { id: 'anim', x: 260, y: 110, label: 'Animation', status: 'in_progress' },
  { id: 'render', x: 390, y: 110, label: 'Render', status: 'todo' },
  { id: 'end', x: 500, y: 110, label: 'End', status: 'edge' },
];
const edges: [string, string][] = [
  ['start', 'model'],
  ['start', 'rig'],
  ['model', 'anim'],
  ['rig', 'anim'],
  ['anim', 'render'],
  ['render', 'end'],
];
/** The app's status palette (docs/design.md), so the landing page shows what the app will. */
const colors: Record<SketchNode['status'], string> = {
  done: statusFill('done'),
  review: statusFill('review'),
  in_progress: statusFill('in_progress'),
  todo: statusFill('todo'),
  edge: 'var(--mantine-color-dark-3)',
};

/** A small live drawing of a pipeline for the landing page, in the page's own theme. */
export function PipelineSketch() {
  const { t } = useTranslation();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return (
    <Paper withBorder radius="md" p="sm" data-testid="pipeline-sketch">
      <svg viewBox="0 0 580 240" width="100%" role="img" aria-label={t('Pipelines as diagrams')}>
        {edges.map(([from, to]) => {
          const a = byId.get(from)!;
          const b = byId.get(to)!;
          const x1 = a.x + 70;
          const y1 = a.y + 18;
          const x2 = b.x;
          const y2 = b.y + 18;
          const mid = (x1 + x2) / 2;
          return (
            <path
              key={`${from}-${to}`}
              d={`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`}
              fill="none"
              stroke="var(--mantine-color-dimmed)"
              strokeWidth={2}
            />
          );
        })}
        {nodes.map((n) => (
          <g key={n.id}>
            <rect
              x={n.x}
              y={n.y}
              width={70}
              height={36}
              rx={8}
              fill="var(--mantine-color-body)"
              stroke={colors[n.status]}
              strokeWidth={2.5}
            />
            <text x={n.x + 35} y={n.y + 23} textAnchor="middle" fontSize={12} fill="var(--mantine-color-text)">
              {t(n.label)}
            </text>
          </g>
        ))}
      </svg>
    </Paper>
  );
}
