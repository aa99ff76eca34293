import { Group, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePasswordStrength } from '../lib/use-password-strength';

/** A bar and a label ('too short' … 'strong') for a new password, from a real estimator. */
export function PasswordStrengthMeter({ password, userInputs }: { password: string; userInputs?: string[] }) {
  const { t } = useTranslation();
  const strength = usePasswordStrength(password, userInputs);
  if (!password) return null;
  return (
    <div data-testid="password-strength" data-strength={strength.label}>
      <Progress value={strength.value} color={strength.color} size="sm" aria-hidden transitionDuration={200} />
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          {t('Password strength')}
        </Text>
        <Text size="xs" c={strength.color} fw={600} aria-live="polite" data-testid="password-strength-label">
          {t(strength.label)}
        </Text>
      </Group>
    </div>
  );
}
