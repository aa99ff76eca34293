import { Alert, Badge, Card, Container, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { resolveLanguage } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { useRunningVersion } from '../api';
import { MarkdownView } from '../components/markdown';
import { releases } from '../lib/changelog-content';
import type { TRelease } from '../lib/changelog';

/** Keep a Changelog's section names, translated; any other name is shown as written. */
function sectionLabel(name: string, t: TFunction): string {
  switch (name.toLowerCase()) {
    case 'added':
      return t('Added');
    case 'changed':
      return t('Changed');
    case 'deprecated':
      return t('Deprecated');
    case 'removed':
      return t('Removed');
    case 'fixed':
      return t('Fixed');
    case 'security':
      return t('Security');
    default:
      return name;
  }
}

function Release({ release, running }: { release: TRelease; running: boolean }) {
  const { t } = useTranslation();
  const { formatDate } = useDates();
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      style={running ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
      data-testid={`release-${release.version}`}
      data-running={running ? 'true' : 'false'}
    >
      <Stack gap="sm">
        <Group gap="sm" align="baseline">
          <Title order={2} size="h3">
            {release.unreleased ? t('Unreleased') : release.version}
          </Title>
          {release.date ? (
            <Text c="dimmed" size="sm">
              {formatDate(`${release.date}T12:00:00`)}
            </Text>
          ) : null}
          {release.yanked ? <Badge color="red">{t('Yanked')}</Badge> : null}
          {running ? <Badge data-testid="release-running">{t('Running')}</Badge> : null}
        </Group>
        {release.sections.map((section) => (
          <Stack key={section.name} gap={6}>
            <Title order={3} size="h5">
              {sectionLabel(section.name, t)}
            </Title>
            <List spacing={6} size="sm">
              {section.items.map((item, i) => (
                <List.Item key={i}>
                  <MarkdownView inline>{item}</MarkdownView>
                </List.Item>
              ))}
            </List>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * The version history at /versions, generated from CHANGELOG.md when the app is built, with the
 * version this server runs (GET config/) marked. Entries are written in English only.
 */
export default function VersionsScreen() {
  const { t, i18n } = useTranslation();
  const running = useRunningVersion();
  const language = resolveLanguage(i18n.resolvedLanguage ?? i18n.language);
  const version = running.data;
  const released = version !== undefined && releases.some((release) => release.version === version);

  return (
    <Container size="md" py="xl" data-testid="versions">
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1}>{t('Version history')}</Title>
          <Text c="dimmed">{t('What changed in each release of Stageline, newest first.')}</Text>
          {language !== 'en' ? (
            <Text c="dimmed" size="sm" data-testid="versions-english-note">
              {t('Changelog entries are kept in English.')}
            </Text>
          ) : null}
        </Stack>
        <Alert variant="light" data-testid="running-version" title={null}>
          {running.isPending ? (
            <Loader size="xs" />
          ) : version ? (
            <Group gap="xs">
              <Text size="sm">{t('This server runs version')}</Text>
              <Badge size="lg" variant="filled" data-testid="running-version-number">
                {version}
              </Badge>
              {released ? null : (
                <Text size="sm" c="dimmed">
                  {t('not released yet: it includes the changes listed under Unreleased.')}
                </Text>
              )}
            </Group>
          ) : (
            <Text size="sm">{t('The running version could not be read.')}</Text>
          )}
        </Alert>
        {releases.map((release) => (
          <Release key={release.version} release={release} running={release.version === version} />
        ))}
      </Stack>
    </Container>
  );
}
