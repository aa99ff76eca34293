import { Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../shared/api/query-client';
import { oauthProvidersQueryOptions, oauthStartUrl } from '../api';

/** A button per configured OAuth provider (GET oauth/providers/); nothing when there are none. */
export function OAuthButtons({ next }: { next?: string | null }) {
  const { t } = useTranslation();
  // The app's client, given here: the auth screens have no query provider.
  const { data: providers = [] } = useQuery(oauthProvidersQueryOptions(), queryClient);
  if (providers.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="oauth-buttons">
      <Divider label={t('or')} labelPosition="center" />
      {providers.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={oauthStartUrl(provider.id, next)}
          variant="default"
          fullWidth
          data-testid={`oauth-${provider.id}`}
        >
          {t('Continue with {{provider}}', { provider: provider.name })}
        </Button>
      ))}
    </Stack>
  );
}
