import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '@mantine/core';
import { paths, type TProject } from '@stageline/shared';
import { RecordDeleteButton, RecordView, type TRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import type { TProjectPatch } from '../api';
import { ProjectForm, projectBody, projectFormFields, type TProjectFormValues } from '../components/project-form';
import { useOpenProject } from '../hooks/use-open-project';
import { useWorkspaceAbilities } from '../hooks/use-workspace-abilities';
import { useProjectRecord } from '../hooks/use-project-record';

/** Edits a project's name, description and review defaults (Members and above); Delete for Admins. */
export default function ProjectEditScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Edit project')}>
      {(project) => <EditProject key={project.id} project={project} record={record} />}
    </RecordView>
  );
}

function EditProject({ project, record }: { project: TProject; record: TRecord<TProject, TProjectPatch> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const abilities = useWorkspaceAbilities(project.workspace);

  const submit = async (values: TProjectFormValues, setErrors: (errors: Record<string, string>) => void) => {
    const saved = await record.save(projectBody(values), { fields: projectFormFields, setErrors });
    if (saved) await navigate(paths.app.project(saved.id));
  };

  return (
    <PageCard title={t('Edit project')}>
      {abilities !== null && !abilities.projects.update ? (
        <Alert color="yellow" data-testid="project-edit-denied">
          {t('Your role does not allow editing this project.')}
        </Alert>
      ) : (
        <ProjectForm
          initialValues={{ name: project.name, description: project.description, ...project.defaults }}
          onSubmit={submit}
          submitLabel={t('Save')}
          testPrefix="project-edit"
          extraActions={
            (abilities?.projects.delete ?? false) ? (
              <RecordDeleteButton record={record} name={project.name} testId="project-delete" />
            ) : null
          }
        />
      )}
    </PageCard>
  );
}
