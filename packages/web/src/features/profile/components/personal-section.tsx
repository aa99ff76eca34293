import { Alert, Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Languages, ZUserPatch, type TLanguage, type TMe } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { zodResolver } from '../../../shared/lib/zod-resolver';
import { showToast } from '../../../shared/ui/toast';
import { patchMe } from '../api';
import { Section } from '../../../shared/ui/section';
import { useSaveMe } from '../hooks/use-save-me';

type TValues = { first_name: string; last_name: string; username: string };
const fields = ['first_name', 'last_name', 'username'] as const;
const languageNames: Record<TLanguage, string> = { en: 'English', ru: 'Русский' };

/** Names and username, saved together with PATCH users/{id}/. */
export function PersonalSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TValues>({
    initialValues: { first_name: user.first_name, last_name: user.last_name, username: user.username },
    validate: zodResolver<TValues>(ZUserPatch, t),
  });

  const submit = async (values: TValues) => {
    setProblem(null);
    const body = ZUserPatch.parse(values);
    try {
      await patchMe(user.id, body);
      form.resetDirty(values);
      showToast({ kind: 'success', message: t('Saved') });
    } catch (error) {
      setProblem(formError(error, { fields, setErrors: form.setErrors, fallback: t('Data was not saved') }));
    }
  };

  return (
    <Section title={t('Personal data')} testId="profile-personal">
      <form onSubmit={form.onSubmit((values) => submit(values))} noValidate>
        {problem ? (
          <Alert color="red" role="alert" mb="sm" data-testid="profile-personal-error">
            {problem}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('First name')}
            autoComplete="given-name"
            data-testid="profile-first-name"
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label={t('Last name')}
            autoComplete="family-name"
            data-testid="profile-last-name"
            {...form.getInputProps('last_name')}
          />
          <TextInput
            label={t('Username')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            data-testid="profile-username"
            {...form.getInputProps('username')}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="md">
          <Button
            type="submit"
            loading={form.submitting}
            disabled={!form.isDirty()}
            data-testid="profile-personal-save"
          >
            {t('Save')}
          </Button>
        </Group>
      </form>
    </Section>
  );
}

/** The interface language, stored on the user (for e-mails too) and applied at once. */
export function LanguageSection({ user }: { user: TMe }) {
  const { t, i18n } = useTranslation();
  const { save, saving } = useSaveMe(user.id);

  const change = async (value: string | null) => {
    const language = Languages.find((candidate) => candidate === value);
    if (!language || language === user.language) return;
    await save({ language }, () => i18n.changeLanguage(language));
  };

  return (
    <Section
      title={t('Language')}
      description={t('The language of the interface and of our e-mails.')}
      testId="profile-language-section"
    >
      <Select
        label={t('Language')}
        data={Languages.map((language) => ({ value: language, label: t(languageNames[language]) }))}
        value={user.language}
        onChange={(value) => void change(value)}
        allowDeselect={false}
        disabled={saving !== null}
        maw={280}
        data-testid="profile-language"
        comboboxProps={{ withinPortal: true }}
      />
    </Section>
  );
}
