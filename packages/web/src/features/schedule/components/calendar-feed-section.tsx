import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZCalendarFeedState } from '@stageline/shared/schedule';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { Section } from '../../../shared/ui/section';

const key = ['schedule', 'feed'] as const;

/**
 * The personal calendar feed (docs/schedule.md, "Calendar feed"): make a secret link for Google,
 * Outlook or Apple calendars (shown once), make a new one (the old stops working) or revoke it.
 */
export function CalendarFeedSection() {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => ZCalendarFeedState.parse(await api.get('me/calendar-feed/', { signal })),
  });
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: key });
    }
  };
  const make = () =>
    act(async () => {
      const made = ZCalendarFeedState.parse(await api.post('me/calendar-feed/'));
      setUrl(made.url ?? null);
    });
  const revoke = () =>
    act(async () => {
      await api.delete('me/calendar-feed/');
      setUrl(null);
    });
  const active = state.data?.active ?? false;
  return (
    <Section
      title={t('Calendar feed')}
      description={t(
        'Your tasks’ due dates and milestones in Google, Outlook or Apple calendars, through a secret link.',
      )}
      testId="profile-calendar-feed-section"
    >
      <Stack gap="xs">
        {url ? (
          <>
            <TextInput
              label={t('Subscribe to this link (shown only now)')}
              value={url}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              data-testid="calendar-feed-url"
            />
          </>
        ) : (
          <Text size="sm" c="dimmed" data-testid="calendar-feed-state">
            {active ? t('A link is active.') : t('No link yet.')}
          </Text>
        )}
        <Group gap="xs">
          <Button variant="default" onClick={() => void make()} loading={busy} data-testid="calendar-feed-make">
            {active ? t('Make a new link') : t('Make a link')}
          </Button>
          {active ? (
            <Button
              variant="default"
              color="red"
              onClick={() => void revoke()}
              disabled={busy}
              data-testid="calendar-feed-revoke"
            >
              {t('Revoke the link')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Section>
  );
}
