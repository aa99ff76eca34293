import { Badge, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TMe } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { sendCode } from '../../auth';
import { setTwoFactor } from '../api';
import { CodeModal } from './code-modal';
import { Section } from '../../../shared/ui/section';

/** Two-factor authentication on or off, each change confirmed by an e-mailed code (docs/rules.md §Accounts). */
export function TwoFactorSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [sending, setSending] = useState(false);
  const enable = !user.two_factor;

  const start = async () => {
    setSending(true);
    try {
      await sendCode({ purpose: 'two_factor' });
      setOpened(true);
    } catch (error) {
      showToast({ kind: 'error', message: formError(error, {}) ?? t('Error while sending code') });
    } finally {
      setSending(false);
    }
  };

  return (
    <Section
      title={t('Two-factor authentication')}
      description={t('With it on, signing in also asks for a code we e-mail you.')}
      testId="profile-2fa-section"
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Text size="sm">{t('Status')}:</Text>
          <Badge
            color={user.two_factor ? 'teal' : 'gray'}
            data-testid="profile-2fa-status"
            data-enabled={user.two_factor}
          >
            {user.two_factor ? t('On') : t('Off')}
          </Badge>
        </Group>
        <Button
          variant={enable ? 'filled' : 'light'}
          color={enable ? undefined : 'red'}
          loading={sending}
          onClick={() => void start()}
          data-testid="profile-2fa-toggle"
        >
          {enable ? t('Turn on') : t('Turn off')}
        </Button>
      </Group>
      <CodeModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={enable ? t('Turn on two-factor authentication') : t('Turn off two-factor authentication')}
        purpose="two_factor"
        confirmLabel={enable ? t('Turn on') : t('Turn off')}
        testId="profile-2fa-code"
        onConfirm={async (code) => {
          await setTwoFactor(enable, code);
          showToast({
            kind: 'success',
            message: enable ? t('Two-factor authentication is on') : t('Two-factor authentication is off'),
          });
        }}
      />
    </Section>
  );
}
