import { Button, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths, type TMe } from '@stageline/shared';
import { displayName, LoginPanel, RegisterPanel } from '../../auth';

/**
 * Quick sign-up or sign-in in place (docs/rules.md §Web): the auth feature's own forms; once
 * signed in, the quickstart carries on from here.
 */
export function AccountStep({ user, onNext }: { user: TMe | null; onNext: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'register' | 'login'>('register');
  if (user) {
    return (
      <Stack gap="md" data-testid="quickstart-account">
        <Title order={2}>{t('Your account')}</Title>
        <Text>{t('You are signed in as {{name}}.', { name: displayName(user) })}</Text>
        <Group justify="flex-end">
          <Button onClick={onNext} data-testid="quickstart-account-next">
            {t('Continue')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={480} data-testid="quickstart-account">
      <Title order={2}>{t('Your account')}</Title>
      <Text c="dimmed">{t('Create an account, or sign in if you have one, and carry on where you are.')}</Text>
      <SegmentedControl
        value={mode}
        onChange={(value) => setMode(value === 'login' ? 'login' : 'register')}
        data={[
          { value: 'register', label: t('Sign up') },
          { value: 'login', label: t('Log in') },
        ]}
        data-testid="quickstart-account-mode"
      />
      <Suspense fallback={<Loader size="sm" />}>
        {mode === 'register' ? <RegisterPanel /> : <LoginPanel next={paths.app.quickstart()} />}
      </Suspense>
    </Stack>
  );
}
