import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZWorkspaceCreate, type TWorkspace } from '@stageline/shared';
import { formError } from '../../../../shared/lib/form-errors';
import { zodResolver } from '../../../../shared/lib/zod-resolver';
import { showToast } from '../../../../shared/ui/toast';
import { useUpdateWorkspace } from '../../api';
import { Section } from '../../../../shared/ui/section';

type TValues = { name: string; description: string };
const fields = ['name', 'description'] as const;

/** Name and description (Admin and above). */
export function EditSection({ workspace }: { workspace: TWorkspace }) {
  const { t } = useTranslation();
  const update = useUpdateWorkspace(workspace.id);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { name: workspace.name, description: workspace.description },
    validate: zodResolver<TValues>(ZWorkspaceCreate, t),
  });

  const submit = async (values: TValues) => {
    setProblem(null);
    try {
      await update.mutateAsync(ZWorkspaceCreate.parse(values));
      form.resetDirty(values);
      showToast({ kind: 'success', message: t('Saved') });
    } catch (error) {
      setProblem(formError(error, { fields, setErrors: form.setErrors, fallback: t('Data was not saved') }));
    }
  };

  return (
    <Section title={t('Edit workspace')} testId="workspace-edit-section">
      <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
        <Stack gap="sm">
          {problem ? (
            <Alert color="red" role="alert" data-testid="workspace-edit-error">
              {problem}
            </Alert>
          ) : null}
          <TextInput label={t('Name')} required data-testid="workspace-edit-name" {...form.getInputProps('name')} />
          <Textarea
            label={t('Description')}
            autosize
            minRows={2}
            maxRows={8}
            data-testid="workspace-edit-description"
            {...form.getInputProps('description')}
          />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={form.submitting}
              disabled={!form.isDirty()}
              data-testid="workspace-edit-save"
            >
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
