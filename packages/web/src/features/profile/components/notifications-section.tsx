import { Alert, Select, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZEmailFrequency, type TEmailFrequency, type TMe } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { askBrowserPermission, browserPermission } from '../../notifications';
import { patchMe } from '../api';
import { Section } from '../../../shared/ui/section';
import { useSaveMe } from '../hooks/use-save-me';

const frequencyLabels: Record<TEmailFrequency, string> = {
  hourly: 'Hourly',
  daily: 'Daily',
  weekly: 'Weekly',
  never: 'Never',
};

/** Browser notifications and the e-mail digest frequency, stored on the user. */
export function NotificationsSection({ user }: { user: TMe }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState<'browser' | 'email' | null>(null);
  const saveMe = useSaveMe(user.id);
  // Turned on here, but this browser cannot or will not show them (another browser, or blocked since).
  const permission = browserPermission();
  const browserProblem = !user.notify_browser
    ? null
    : permission === 'unsupported'
      ? t('Your browser does not support notifications')
      : permission === 'denied'
        ? t('You have blocked notifications (change the site settings in the browser)')
        : null;

  const toggleBrowser = async (on: boolean) => {
    setSaving('browser');
    try {
      if (on && !(await askBrowserPermission(t))) return;
      try {
        await patchMe(user.id, { notify_browser: on });
        showToast({ kind: 'success', message: t('Saved') });
      } catch {
        showToast({
          kind: 'error',
          message: on ? t('Notifications was turned on, but settings was not saved') : t('Data was not saved'),
        });
      }
    } finally {
      setSaving(null);
    }
  };

  const changeFrequency = async (value: string | null) => {
    const parsed = ZEmailFrequency.safeParse(value);
    if (!parsed.success || parsed.data === user.email_frequency) return;
    setSaving('email');
    try {
      await saveMe.save({ email_frequency: parsed.data });
    } finally {
      setSaving(null);
    }
  };

  return (
    <Section title={t('Notifications')} testId="profile-notifications-section">
      <Stack gap="md">
        <Switch
          label={t('Browser notifications')}
          description={t('Pop-ups from this browser while Stageline is open.')}
          checked={user.notify_browser}
          disabled={saving === 'browser'}
          onChange={(event) => void toggleBrowser(event.currentTarget.checked)}
          data-testid="profile-notify-browser"
        />
        {browserProblem ? (
          <Alert color="yellow" py="xs" data-testid="profile-notify-browser-problem">
            {browserProblem}
          </Alert>
        ) : null}
        <Select
          label={t('E-mail notifications')}
          description={t('How often we e-mail you what happened.')}
          data={ZEmailFrequency.options.map((value) => ({ value, label: t(frequencyLabels[value]) }))}
          value={user.email_frequency}
          onChange={(value) => void changeFrequency(value)}
          allowDeselect={false}
          disabled={saving === 'email'}
          maw={280}
          data-testid="profile-email-frequency"
          comboboxProps={{ withinPortal: true }}
        />
      </Stack>
    </Section>
  );
}
