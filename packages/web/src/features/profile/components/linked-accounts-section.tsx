import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMe } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { oauthProvidersQueryOptions, startOAuthLink } from '../../auth';
import { unlinkOAuth } from '../api';
import { Section } from '../../../shared/ui/section';

/**
 * The sign-in providers the server offers, each linked or not: link sends the browser to the
 * provider (the /oauth screen brings it back here), unlink asks the server, which refuses to remove
 * the last way to sign in and says why.
 */
export function LinkedAccountsSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const { data: providers = [] } = useQuery(oauthProvidersQueryOptions());
  const [busy, setBusy] = useState<string | null>(null);

  const names = new Map(providers.map((provider) => [provider.id, provider.name]));
  // Configured providers first, then accounts of a provider no longer configured (still unlinkable).
  const rows = [
    ...providers.map((provider) => provider.id),
    ...user.oauth_accounts.map((account) => account.provider).filter((id) => !names.has(id)),
  ].filter((id, index, all) => all.indexOf(id) === index);

  const link = async (provider: string) => {
    setBusy(provider);
    try {
      const { url } = await startOAuthLink(provider);
      window.location.assign(url);
    } catch (error) {
      const message = formError(error, {});
      if (message) showToast({ kind: 'error', message });
      setBusy(null);
    }
  };

  const unlink = async (provider: string) => {
    setBusy(provider);
    try {
      const detail = await unlinkOAuth(provider);
      showToast({ kind: 'success', message: detail ?? t('Account unlinked.') });
    } catch (error) {
      const message = formError(error, {});
      if (message) showToast({ kind: 'error', message });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Section
      title={t('Linked accounts')}
      description={t('Accounts of other services you can sign in with.')}
      testId="profile-oauth-section"
    >
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="profile-oauth-empty">
          {t('No linked accounts.')}
        </Text>
      ) : (
        <Stack gap="xs">
          {rows.map((provider) => {
            const account = user.oauth_accounts.find((entry) => entry.provider === provider);
            return (
              <Group
                key={provider}
                justify="space-between"
                wrap="nowrap"
                data-testid="profile-oauth-account"
                data-provider={provider}
                data-linked={Boolean(account)}
              >
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text size="sm" fw={500}>
                      {names.get(provider) ?? provider}
                    </Text>
                    {account ? (
                      <Badge size="xs" variant="light" color="green">
                        {t('Linked')}
                      </Badge>
                    ) : null}
                  </Group>
                  {account?.email ? (
                    <Text size="xs" c="dimmed" truncate>
                      {account.email}
                    </Text>
                  ) : null}
                </div>
                {account ? (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={busy === provider}
                    disabled={busy !== null && busy !== provider}
                    onClick={() => void unlink(provider)}
                    data-testid="profile-oauth-unlink"
                  >
                    {t('Unlink')}
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    loading={busy === provider}
                    disabled={busy !== null && busy !== provider}
                    onClick={() => void link(provider)}
                    data-testid="profile-oauth-link"
                  >
                    {t('Link')}
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}
