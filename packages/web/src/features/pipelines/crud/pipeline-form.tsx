import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ZPipelineCreate, type TLayout } from '@stageline/shared';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { NameDescriptionFields } from '../../../shared/ui/name-description-fields';

export type TPipelineFormValues = { name: string; description: string; layout: TLayout };
export const pipelineFormFields = ['name', 'description', 'layout'] as const;

const ZPipelineForm = ZPipelineCreate.pick({ name: true, description: true, layout: true });

/** The form values as the body of POST or PATCH pipelines/. */
export const pipelineBody = (values: TPipelineFormValues) => ({ ...values, name: values.name.trim() });

/** Name, description and orientation of a pipeline. `testPrefix` is `pipeline-create` or `pipeline-edit`. */
export function PipelineForm({
  initialValues,
  onSubmit,
  submitLabel,
  testPrefix,
  problem,
  extraActions,
}: {
  initialValues: TPipelineFormValues;
  onSubmit: (values: TPipelineFormValues, setErrors: (errors: Record<string, string>) => void) => Promise<void>;
  submitLabel: string;
  testPrefix: string;
  problem?: string | null;
  extraActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const form = useForm<TPipelineFormValues>({
    initialValues,
    validate: zodResolver<TPipelineFormValues>(ZPipelineForm, t),
  });
  const layouts: { value: TLayout; label: string }[] = [
    { value: 'vertical', label: t('Vertical') },
    { value: 'horizontal', label: t('Horizontal') },
  ];
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values, form.setErrors))} noValidate>
      <Stack gap="sm" maw={560}>
        <NameDescriptionFields form={form} testPrefix={testPrefix} problem={problem} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('Layout')}
          </Text>
          <SegmentedControl<TLayout>
            data={layouts}
            data-testid={`${testPrefix}-layout`}
            value={form.values.layout}
            onChange={(value) => form.setFieldValue('layout', value)}
          />
        </Stack>
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
