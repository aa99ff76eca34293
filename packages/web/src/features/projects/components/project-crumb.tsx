import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { parseRecordId } from '../../../shared/records';
import { projectQueryOptions } from '../api';

/** The project's name in the breadcrumb trail, read from its query; 'Project {id}' until it is known. */
export function ProjectCrumb({ projectId }: { projectId: string | undefined }) {
  const { t } = useTranslation();
  const id = parseRecordId(projectId);
  const project = useQuery({ ...projectQueryOptions(id ?? 0), enabled: id !== null });
  return <span data-testid="crumb-project">{project.data?.name ?? t('Project {{id}}', { id: projectId })}</span>;
}
