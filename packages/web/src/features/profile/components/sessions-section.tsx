import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSession } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { endOtherSessions, revokeSession, sessionsQueryOptions } from '../api';
import { Section } from '../../../shared/ui/section';
import { LoadError } from '../../../shared/ui/load-error';

/** A readable device name from a user agent: browser and system, or the raw string. */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser}, ${system}` : (browser ?? system ?? userAgent.slice(0, 80));
}

/** Security: the signed-in devices (the current one marked) and revoking the others. */
export function SessionsSection() {
  const { t } = useTranslation();
  const dates = useDates();
  const sessions = useQuery(sessionsQueryOptions());
  const [revoking, setRevoking] = useState<number | 'others' | null>(null);
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  const revoke = async (session: TSession) => {
    setRevoking(session.id);
    try {
      await revokeSession(session.id);
      showToast({ kind: 'success', message: t('Session ended') });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    } finally {
      setRevoking(null);
    }
  };

  const endOthers = async () => {
    setRevoking('others');
    try {
      const ended = await endOtherSessions();
      showToast({ kind: 'success', message: t('{{count}} sessions ended', { count: ended }) });
    } catch (error) {
      const message = formError(error, { fallback: t('Data was not saved') });
      if (message) showToast({ kind: 'error', message });
    } finally {
      setRevoking(null);
    }
  };

  const when = (value: string) => `${dates.formatCalendar(value)} ${dates.formatTime(value)}`;

  return (
    <Section
      title={t('Security')}
      description={t('Devices signed in to your account. End the sessions you do not recognise.')}
      testId="profile-sessions-section"
    >
      {sessions.isPending ? <Loader size="sm" aria-label={t('Loading...')} /> : null}
      {sessions.isError ? <LoadError retry={sessions} /> : null}
      <Stack gap="sm">
        {(sessions.data ?? []).map((session) => (
          <Group
            key={session.id}
            justify="space-between"
            wrap="nowrap"
            align="flex-start"
            data-testid="profile-session"
            data-current={session.current}
          >
            <div style={{ minWidth: 0, flex: 1 }}>
              <Group gap="xs">
                <Text size="sm" fw={500} truncate>
                  {deviceName(session.user_agent) ?? t('Unknown device')}
                </Text>
                {session.current ? (
                  <Badge size="sm" color="teal" variant="light">
                    {t('This device')}
                  </Badge>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed">
                {[session.ip, t('last active {{when}}', { when: when(session.last_used_at) })]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('signed in {{when}}', { when: when(session.created_at) })}
              </Text>
            </div>
            {session.current ? null : (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={revoking === session.id}
                onClick={() => void revoke(session)}
                style={{ flexShrink: 0 }}
                data-testid="profile-session-revoke"
              >
                {t('End session')}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      {others > 1 ? (
        <Group justify="flex-end" mt="sm">
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={revoking === 'others'}
            onClick={() => void endOthers()}
            data-testid="profile-sessions-end-others"
          >
            {t('Sign out everywhere else')}
          </Button>
        </Group>
      ) : null}
    </Section>
  );
}
