import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths, ZWorkspaceCreate } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useCreateWorkspace } from '../api';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';

type TValues = { name: string; description: string };
const fields = ['name', 'description'] as const;

/** Creates a workspace (I become its owner), switches to it and opens it. */
export default function WorkspaceCreateScreen() {
  const { t } = useTranslation();
  const create = useCreateWorkspace();
  const switchTo = useSwitchWorkspace();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { name: '', description: '' },
    validate: zodResolver<TValues>(ZWorkspaceCreate, t),
  });

  const submit = async (values: TValues) => {
    setProblem(null);
    try {
      const workspace = await create.mutateAsync(ZWorkspaceCreate.parse(values));
      showToast({ kind: 'success', message: t('Workspace created') });
      await switchTo(workspace.id, paths.app.workspace(workspace.id));
    } catch (error) {
      setProblem(formError(error, { fields, setErrors: form.setErrors, fallback: t('Data was not saved') }));
    }
  };

  return (
    <PageCard title={t('Create workspace')}>
      <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
        <Stack gap="sm" maw={560}>
          {problem ? (
            <Alert color="red" role="alert" data-testid="workspace-create-error">
              {problem}
            </Alert>
          ) : null}
          <TextInput
            label={t('Name')}
            required
            data-autofocus
            data-testid="workspace-create-name"
            {...form.getInputProps('name')}
          />
          <Textarea
            label={t('Description')}
            autosize
            minRows={3}
            maxRows={10}
            data-testid="workspace-create-description"
            {...form.getInputProps('description')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="workspace-create-submit">
              {t('Create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PageCard>
  );
}
