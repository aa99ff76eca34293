import { Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './landing.module.css';

type TCell = 'done' | 'review' | 'in_progress' | 'edit' | 'todo';

const stages = ['Model', 'Rig', 'Animation', 'Render'];
const rows: { unit: string; cells: TCell[] }[] = [
  { unit: 'Shot 010', cells: ['done', 'done', 'review', 'todo'] },
  { unit: 'Shot 020', cells: ['done', 'done', 'done', 'in_progress'] },
  { unit: 'Shot 030', cells: ['done', 'edit', 'todo', 'todo'] },
  { unit: 'Shot 040', cells: ['in_progress', 'review', 'todo', 'todo'] },
];
const legend: { status: TCell; label: string }[] = [
  { status: 'todo', label: 'To do' },
  { status: 'in_progress', label: 'Work in progress' },
  { status: 'review', label: 'Review' },
  { status: 'edit', label: 'Edit' },
  { status: 'done', label: 'Done' },
];

/**
 * The unit × stage matrix in miniature: every unit has a task at every stage, coloured by status.
 * Plain HTML and CSS, so it paints in the prerendered landing page without any script.
 */
export function MatrixSketch() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="matrix-sketch">
      <table className={classes.matrix} aria-label={t('Every unit at every stage')}>
        <thead>
          <tr>
            <th scope="col">{t('Unit')}</th>
            {stages.map((stage) => (
              <th key={stage} scope="col">
                {t(stage)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.unit}>
              <th scope="row">{row.unit}</th>
              {row.cells.map((cell, i) => (
                <td key={stages[i]}>
                  <span
                    className={classes.cell}
                    data-status={cell}
                    title={t(legend.find((l) => l.status === cell)!.label)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Group gap="md" mt="xs" justify="center">
        {legend.map(({ status, label }) => (
          <Group key={status} gap={6} wrap="nowrap">
            <span className={classes.cell} data-status={status} aria-hidden="true" />
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t(label)}
            </Text>
          </Group>
        ))}
      </Group>
    </Paper>
  );
}
