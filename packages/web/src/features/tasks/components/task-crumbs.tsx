import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { parseRecordId } from '../../../shared/records';
import { CrumbStep, type TRecordCrumbsProps } from '../../../shared/ui/crumb';
import { taskQueryOptions } from '../api';

/**
 * The task's steps of the breadcrumb trail, all from the task: project, pipeline, unit, then the
 * task by its stage's name ('Task {id}' until it is known).
 */
export function TaskCrumbs({ params, current }: TRecordCrumbsProps) {
  const { t } = useTranslation();
  const id = parseRecordId(params.taskId);
  const task = useQuery({ ...taskQueryOptions(id ?? 0), enabled: id !== null }).data;
  if (!task) return <CrumbStep label={t('Task {{id}}', { id: params.taskId })} current={current} />;
  const { project, pipeline, unit, stage } = task;
  return (
    <>
      <CrumbStep label={project.name} to={paths.app.project(project.id)} />
      <CrumbStep label={pipeline.name} to={paths.app.pipeline(project.id, pipeline.id)} />
      <CrumbStep label={unit.name} to={paths.app.unit(project.id, unit.id)} />
      <CrumbStep label={<span data-testid="crumb-task">{stage.name}</span>} current={current} />
    </>
  );
}
