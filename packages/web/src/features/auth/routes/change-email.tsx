import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TEmailConfirmed } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { confirmEmailChange, meQueryKey } from '../api';

/** One answer per link for the life of the page (see `confirmOnce`). */
const confirmations = new Map<string, Promise<TEmailConfirmed['status']>>();

/**
 * Links are single use, so the POST must never repeat: strict mode's double effects, the profile
 * refetch after the change (its key once shared the `users/me` prefix) or a live-events reset would
 * otherwise post again and turn 'E-mail changed' into 'Invalid token'. A refetch gets the first
 * answer again. Opened again later (a reload, a second tab), the server answers 'already_confirmed'.
 */
function confirmOnce(token: string): Promise<TEmailConfirmed['status']> {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = confirmEmailChange(token).then((answer) => answer.status);
    confirmations.set(token, confirmation);
  }
  return confirmation;
}

/**
 * `/change_email?token=…` (signed in, like invites): confirms the new address the link was sent to,
 * says it already was, or says 'Invalid token'.
 */
export default function ChangeEmailScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const queryClient = useQueryClient();
  const confirmation = useQuery({
    queryKey: ['email-change', token],
    queryFn: () => confirmOnce(token!),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
  });

  useEffect(() => {
    if (confirmation.isSuccess) void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [confirmation.isSuccess, queryClient]);

  return (
    <PageCard title={t('Confirm e-mail change')}>
      <Stack gap="md" align="flex-start">
        {token && confirmation.isPending ? (
          <Center w="100%" py="md">
            <Loader aria-label={t('Loading...')} />
          </Center>
        ) : null}
        {!token || confirmation.isError ? (
          <Alert color="red" role="alert" w="100%" data-testid="change-email-invalid" title={t('Invalid token')}>
            {t('The link is wrong, used or expired. Ask for a new one.')}
          </Alert>
        ) : null}
        {confirmation.data === 'changed' ? (
          <Alert color="teal" w="100%" data-testid="change-email-done" title={t('E-mail changed')}>
            {t('Your new e-mail is confirmed. Use it to sign in from now on.')}
          </Alert>
        ) : null}
        {confirmation.data === 'already_confirmed' ? (
          <Alert color="teal" w="100%" data-testid="change-email-already" title={t('E-mail already confirmed')}>
            {t('This link was used before and your account already has this address: nothing else to do.')}
          </Alert>
        ) : null}
        {token && confirmation.isPending ? null : (
          <Button component={Link} to={paths.app.profile()} variant="light" data-testid="change-email-profile">
            {t('Go to profile')}
          </Button>
        )}
      </Stack>
    </PageCard>
  );
}
