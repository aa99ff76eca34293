import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { meQueryKey } from '../../auth';
import { unsubscribe } from '../api';

/**
 * `/unsubscribe/:token`, the link at the foot of every digest (public: no sign-in). It posts the
 * token once on arrival and says whether e-mail digests are now off.
 */
export default function UnsubscribeScreen() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const result = useQuery({
    queryKey: ['users', 'unsubscribe', token],
    queryFn: () => unsubscribe(token).then(() => true),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  useEffect(() => {
    // A signed-in tab shows the new frequency in the profile.
    if (result.isSuccess) void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [result.isSuccess, queryClient]);

  return (
    <PageCard title={t('Unsubscribe from e-mail digests')}>
      <Stack gap="md" align="flex-start">
        {result.isPending ? (
          <Center w="100%" py="md">
            <Loader aria-label={t('Unsubscribing…')} />
          </Center>
        ) : null}
        {result.isError ? (
          <Alert
            color="red"
            role="alert"
            w="100%"
            data-testid="unsubscribe-invalid"
            title={t('This unsubscribe link is invalid or has expired.')}
          >
            {t('You can also turn digests off in the e-mail settings of your profile.')}
          </Alert>
        ) : null}
        {result.isSuccess ? (
          <Alert
            color="teal"
            w="100%"
            data-testid="unsubscribe-done"
            title={t('You are unsubscribed from e-mail digests.')}
          >
            <Text size="sm">
              {t('Stageline will not e-mail you digests any more. You can turn them back on in your profile.')}
            </Text>
          </Alert>
        ) : null}
        {result.isPending ? null : (
          <Button component={Link} to={paths.app.profile()} variant="light" data-testid="unsubscribe-profile">
            {t('Open profile')}
          </Button>
        )}
      </Stack>
    </PageCard>
  );
}
