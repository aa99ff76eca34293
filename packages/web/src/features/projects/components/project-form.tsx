import { Button, Checkbox, Fieldset, Group, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ProductReviewDefaults,
  ReviewModeLabels,
  ReviewModes,
  ZProjectCreate,
  type TReviewDefaults,
} from '@stageline/shared';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { NameDescriptionFields } from '../../../shared/ui/name-description-fields';

export type TProjectFormValues = { name: string; description: string } & TReviewDefaults;
export const projectFormFields = ['name', 'description'] as const;

/** What a new project's stages start with until someone chooses otherwise. */
export const initialReviewDefaults: TReviewDefaults = ProductReviewDefaults;

const ZProjectForm = ZProjectCreate.pick({ name: true, description: true });

/** The form values as the body of POST or PATCH projects/. */
export function projectBody(values: TProjectFormValues) {
  const { name, description, ...defaults } = values;
  return { name: name.trim(), description, defaults };
}

/**
 * Name, description and the review settings new stages of the project start with (docs/rules.md
 * §Pipelines). `testPrefix` is `project-create` or `project-edit`.
 */
export function ProjectForm({
  initialValues,
  onSubmit,
  submitLabel,
  testPrefix,
  problem,
  extraActions,
}: {
  initialValues: TProjectFormValues;
  onSubmit: (values: TProjectFormValues, setErrors: (errors: Record<string, string>) => void) => Promise<void>;
  submitLabel: string;
  testPrefix: string;
  problem?: string | null;
  extraActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const form = useForm<TProjectFormValues>({
    initialValues,
    validate: zodResolver<TProjectFormValues>(ZProjectForm, t),
  });
  const modes = ReviewModes.map((mode) => ({ value: mode, label: t(ReviewModeLabels[mode]) }));

  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values, form.setErrors))} noValidate>
      <Stack gap="sm" maw={560}>
        <NameDescriptionFields form={form} testPrefix={testPrefix} problem={problem} />
        <Fieldset legend={t('Review defaults for new stages')} variant="filled">
          <Stack gap="sm">
            <Select
              label={t('Review mode')}
              data={modes}
              allowDeselect={false}
              data-testid={`${testPrefix}-review-mode`}
              value={form.values.review_mode}
              onChange={(value) => {
                if (value) form.setFieldValue('review_mode', value);
              }}
            />
            <Checkbox
              label={t('Skip review when there are no reviewers')}
              data-testid={`${testPrefix}-skip-review`}
              {...form.getInputProps('skip_review_if_no_reviewers', { type: 'checkbox' })}
            />
            <Checkbox
              label={t('Accept edit as done')}
              data-testid={`${testPrefix}-accept-edit`}
              {...form.getInputProps('accept_edit_as_done', { type: 'checkbox' })}
            />
            <Checkbox
              label={t('To do enabled')}
              data-testid={`${testPrefix}-todo-enabled`}
              {...form.getInputProps('todo_enabled', { type: 'checkbox' })}
            />
          </Stack>
        </Fieldset>
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
