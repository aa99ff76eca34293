import { Avatar } from '@mantine/core';
import { IconAlarm, IconPaperclip } from '@tabler/icons-react';
import { paths, showsReady, type TMatrixPage, type TTaskCell } from '@stageline/shared';
import { statusChipStyle } from '../../../shared/ui/status-colors';
import classes from './matrix.module.css';

/** A stage column of the matrix. */
export type TStage = TMatrixPage['stages'][number];

/** Names of the workspace's people by id: the matrix's cells carry assignee ids only. */
export type TPeople = ReadonlyMap<number, string>;
/** Avatars shown in a cell before a "+n". */
const CellAvatars = 2;

/** A cell's assignees as initials (Mantine's colour of their name), at most two and a "+n". */
function Assignees({ ids, people }: { ids: readonly number[]; people: TPeople }) {
  const named = ids.map((id) => people.get(id)).filter((name): name is string => !!name);
  if (named.length === 0) return null;
  const extra = named.length - CellAvatars;
  return (
    <Avatar.Group spacing={6} className={classes.avatars} data-testid="matrix-cell-assignees">
      {named.slice(0, CellAvatars).map((name) => (
        <Avatar key={name} name={name} color="initials" size={20} alt={name} title={name} />
      ))}
      {extra > 0 ? <Avatar size={20}>+{extra}</Avatar> : null}
    </Avatar.Group>
  );
}

/** What every cell needs that does not change from cell to cell: translated words, the people. */
export type TCellContext = {
  people: TPeople;
  labels: Record<TTaskCell['status'], string>;
  words: { ready: string; overdue: string; onPipeline: string };
  /** "3 files", for the paperclip's label. */
  files: (count: number) => string;
};

/**
 * One cell: a plain link (no router component, no hooks) that the grid's one click handler turns
 * into an in-app navigation; a middle click or Ctrl+click still opens a tab. Ready and overdue are
 * classes; only the stage and the status are data attributes (docs/decisions.md, "Web speed").
 */
export function StatusCell({
  task,
  stage,
  context,
}: {
  task: TTaskCell | undefined;
  stage: TStage;
  context: TCellContext;
}) {
  if (!task) return <span className={classes.empty}>—</span>;
  const label = context.labels[task.status];
  const ready = showsReady(task.status, task.ready);
  const names = task.assignees.length ? task.assignees.map((id) => context.people.get(id)).filter(Boolean) : [];
  const title = [
    stage.name,
    label,
    ready ? context.words.ready : null,
    task.overdue ? context.words.overdue : null,
    task.files > 0 ? context.files(task.files) : null,
  ]
    .concat(names.length ? [names.join(', ')] : [])
    .filter(Boolean)
    .join(' · ');
  let className = classes.cell;
  if (ready) className += ` ${classes.ready}`;
  if (task.overdue) className += ` ${classes.overdue}`;
  return (
    <a
      href={paths.app.task(task.id)}
      className={className}
      style={statusChipStyle(task.status)}
      title={title}
      tabIndex={-1}
      data-testid="matrix-cell"
      data-stage-id={stage.id}
      data-status={task.status}
    >
      {task.overdue ? <IconAlarm size={12} className={classes.overdueIcon} aria-label={context.words.overdue} /> : null}
      <span>{label}</span>
      {task.files > 0 ? (
        <span className={classes.files} aria-label={context.files(task.files)} data-testid="matrix-cell-files">
          <IconPaperclip size={11} aria-hidden />
          {task.files}
        </span>
      ) : null}
      {task.assignees.length ? <Assignees ids={task.assignees} people={context.people} /> : null}
    </a>
  );
}
