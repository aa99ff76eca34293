import { Anchor, Button, Group, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ZUnitCreate, type TPipelineSummary } from '@stageline/shared';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { NameDescriptionFields } from '../../../shared/ui/name-description-fields';

export type TUnitFormValues = { name: string; description: string; pipeline: string | null };
export const unitFormFields = ['name', 'description', 'pipeline'] as const;

const ZUnitForm = ZUnitCreate.pick({ name: true, description: true, pipeline: true });
const ZUnitEditForm = ZUnitCreate.pick({ name: true, description: true });

/**
 * Name, description and, when creating, the pipeline the unit runs through. Beside the pipeline, a
 * relative link to `pipelines/create` (docs/rules.md §Web).
 */
export function UnitForm({
  initialValues,
  pipelines,
  onSubmit,
  submitLabel,
  testPrefix,
  problem,
  extraActions,
}: {
  initialValues: TUnitFormValues;
  /** The project's pipelines when creating; absent when editing (a unit keeps its pipeline). */
  pipelines?: TPipelineSummary[];
  onSubmit: (values: TUnitFormValues, setErrors: (errors: Record<string, string>) => void) => Promise<void>;
  submitLabel: string;
  testPrefix: string;
  problem?: string | null;
  extraActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const creating = pipelines !== undefined;
  const resolve = zodResolver<Record<string, unknown>>(creating ? ZUnitForm : ZUnitEditForm, t);
  const form = useForm<TUnitFormValues>({
    initialValues,
    validate: (values) => resolve({ ...values, pipeline: values.pipeline ? Number(values.pipeline) : undefined }),
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values, form.setErrors))} noValidate>
      <Stack gap="sm" maw={560}>
        <NameDescriptionFields form={form} testPrefix={testPrefix} problem={problem} />
        {creating ? (
          <Stack gap={4}>
            <Select
              label={t('Pipeline')}
              required
              data={pipelines.map((p) => ({ value: String(p.id), label: p.name }))}
              allowDeselect={false}
              data-testid={`${testPrefix}-pipeline`}
              {...form.getInputProps('pipeline')}
            />
            <Anchor
              component={Link}
              to="../../pipelines/create"
              relative="path"
              size="sm"
              data-testid={`${testPrefix}-pipeline-create`}
            >
              {t('Create pipeline')}
            </Anchor>
          </Stack>
        ) : null}
        <Group justify="space-between">
          <Group gap="xs">{extraActions}</Group>
          <Button type="submit" loading={form.submitting} data-testid={`${testPrefix}-submit`}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
