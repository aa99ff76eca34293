import { Box, Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChecks, IconHierarchy3, IconStack2 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { MatrixSketch } from '../components/matrix-sketch';
import { PipelineSketch } from '../components/pipeline-sketch';

const features = [
  {
    Icon: IconHierarchy3,
    title: 'Pipelines as diagrams',
    text: 'Stages, branches and merges in an editor you drag and drop.',
  },
  {
    Icon: IconChecks,
    title: 'Reviews built in',
    text: 'Each reviewer or any reviewer decides; rejects go back to the right stage.',
  },
  {
    Icon: IconStack2,
    title: 'Units at scale',
    text: 'Create thousands of units at once and see every one of them at every stage.',
  },
];

/**
 * The public landing page: what Stageline does, and the way in. The server sends it prerendered
 * (app/prerender), so it paints from HTML and CSS before the app's script runs: keep it free of
 * effects and data loading.
 */
export default function LandingScreen() {
  const { t } = useTranslation();
  return (
    <Container size="lg" py={48}>
      <Stack gap={48}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40} data-testid="landing-hero">
          <Stack gap="lg" justify="center">
            <Title order={1} fz={{ base: 32, sm: 42 }} lh={1.15}>
              {t('Work that flows through stages, with a review at every step.')}
            </Title>
            <Text size="lg" c="dimmed">
              {t(
                'Draw your process as a diagram of stages. Stageline creates a task for every unit at every stage, routes it to its reviewers and shows where each piece of work stands.',
              )}
            </Text>
            <Group>
              <Button size="md" component={Link} to={paths.register()} data-testid="landing-register">
                {t('Get started')}
              </Button>
              <Button size="md" variant="default" component={Link} to={paths.login()} data-testid="landing-login">
                {t('Log in')}
              </Button>
              <Button size="md" variant="subtle" component={Link} to={paths.docs()}>
                {t('Read the docs')}
              </Button>
            </Group>
          </Stack>
          <Box>
            <PipelineSketch />
          </Box>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
          {features.map(({ Icon, title, text }) => (
            <Stack key={title} gap="xs">
              <ThemeIcon size={40} radius="md" variant="light">
                <Icon size={22} />
              </ThemeIcon>
              <Text fw={600}>{t(title)}</Text>
              <Text c="dimmed" size="sm">
                {t(text)}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40}>
          <MatrixSketch />
          <Stack gap="sm" justify="center">
            <Title order={2}>{t('Every unit at every stage')}</Title>
            <Text c="dimmed">
              {t(
                'Each unit gets a task at every stage of its pipeline. The matrix shows all of them at once: what is waiting, what is in review, what came back for edits and what is done.',
              )}
            </Text>
          </Stack>
        </SimpleGrid>
        <Paper withBorder radius="md" p="xl" data-testid="landing-cta">
          <Group justify="space-between" gap="lg">
            <Stack gap={4}>
              <Title order={2}>{t('Try it with your team')}</Title>
              <Text c="dimmed">
                {t(
                  'Register, and a short quickstart walks you through your workspace, a project and a first pipeline.',
                )}
              </Text>
            </Stack>
            <Group>
              <Button size="md" component={Link} to={paths.register()}>
                {t('Register')}
              </Button>
              <Button size="md" variant="default" component={Link} to={paths.login()}>
                {t('Log in')}
              </Button>
            </Group>
          </Group>
        </Paper>
      </Stack>
    </Container>
  );
}
