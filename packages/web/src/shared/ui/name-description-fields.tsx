import { Alert, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

/**
 * The opening of every record form (project, pipeline, unit): an error that is not about one field,
 * then the required name and the optional description. No `maxLength`: a longer text stays as typed
 * and the form's schema says what is wrong (docs/decisions.md, entry 61).
 */
export function NameDescriptionFields<T extends { name: string; description: string }>({
  form,
  testPrefix,
  problem,
}: {
  form: UseFormReturnType<T>;
  testPrefix: string;
  problem: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {problem ? (
        <Alert color="red" role="alert" data-testid={`${testPrefix}-error`}>
          {problem}
        </Alert>
      ) : null}
      <TextInput
        label={t('Name')}
        required
        data-autofocus
        data-testid={`${testPrefix}-name`}
        {...form.getInputProps('name')}
      />
      <Textarea
        label={t('Description')}
        autosize
        minRows={3}
        maxRows={10}
        data-testid={`${testPrefix}-description`}
        {...form.getInputProps('description')}
      />
    </>
  );
}
