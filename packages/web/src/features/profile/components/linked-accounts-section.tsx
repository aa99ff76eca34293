import { Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TMe } from '@stageline/shared';
import { Section } from './section';

/**
 * The OAuth accounts linked to the user. Linking and unlinking arrive with OAuth sign-in; until
 * then the buttons are shown disabled and say so.
 */
export function LinkedAccountsSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const soon = t('Linking accounts arrives with sign-in through other services.');
  return (
    <Section
      title={t('Linked accounts')}
      description={t('Accounts of other services you can sign in with.')}
      testId="profile-oauth-section"
    >
      {user.oauth_accounts.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="profile-oauth-empty">
          {t('No linked accounts.')}
        </Text>
      ) : (
        <Stack gap="xs">
          {user.oauth_accounts.map((account) => (
            <Group
              key={`${account.provider}:${account.email ?? ''}`}
              justify="space-between"
              data-testid="profile-oauth-account"
            >
              <div>
                <Text size="sm" fw={500} tt="capitalize">
                  {account.provider}
                </Text>
                {account.email ? (
                  <Text size="xs" c="dimmed">
                    {account.email}
                  </Text>
                ) : null}
              </div>
              <Tooltip label={soon}>
                <span>
                  <Button size="xs" variant="subtle" color="red" disabled data-testid="profile-oauth-unlink">
                    {t('Unlink')}
                  </Button>
                </span>
              </Tooltip>
            </Group>
          ))}
        </Stack>
      )}
      <Group>
        <Tooltip label={soon}>
          <span>
            <Button size="xs" variant="light" disabled data-testid="profile-oauth-link">
              {t('Link an account')}
            </Button>
          </span>
        </Tooltip>
      </Group>
    </Section>
  );
}
