import { Button, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconChecks,
  IconFolder,
  IconHierarchy3,
  IconListCheck,
  IconStack2,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MiniPipeline } from './mini-pipeline';

const concepts = [
  { Icon: IconBuildingCommunity, title: 'Workspace', text: 'Your team: the people you work with and their roles.' },
  {
    Icon: IconFolder,
    title: 'Project',
    text: 'One piece of work of the team, such as a film, a product or a campaign.',
  },
  { Icon: IconHierarchy3, title: 'Pipeline', text: 'The diagram of stages work goes through, from Start to End.' },
  { Icon: IconStack2, title: 'Unit', text: 'One thing to make, such as a shot, a page or a feature.' },
  {
    Icon: IconListCheck,
    title: 'Task',
    text: 'A unit at one stage: created for you, with people in charge and a due date.',
  },
  { Icon: IconChecks, title: 'Review', text: 'Reviewers accept a task or send it back for another round.' },
];

/** Welcome and the short tutorial: the six words Stageline is made of, and a small pipeline. */
export function WelcomeStep({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const example = [
    { key: 'start', name: t('Start'), kind: 'root' as const },
    { key: 'script', name: t('Script'), kind: 'stage' as const },
    { key: 'storyboard', name: t('Storyboard'), kind: 'stage' as const },
    { key: 'animation', name: t('Animation'), kind: 'stage' as const },
    { key: 'end', name: t('End'), kind: 'end' as const },
  ];
  return (
    <Stack gap="lg" data-testid="quickstart-welcome">
      <Stack gap={4}>
        <Title order={2}>{t('Welcome to Stageline')}</Title>
        <Text c="dimmed">
          {t(
            'In a few steps you will set up a workspace, a project and your first pipeline. Everything you create here is real, and you can skip at any time.',
          )}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {concepts.map(({ Icon, title, text }) => (
          <Group key={title} gap="sm" align="flex-start" wrap="nowrap">
            <ThemeIcon variant="light" size={36} radius="md">
              <Icon size={20} />
            </ThemeIcon>
            <Stack gap={2}>
              <Text fw={600}>{t(title)}</Text>
              <Text size="sm" c="dimmed">
                {t(text)}
              </Text>
            </Stack>
          </Group>
        ))}
      </SimpleGrid>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {t('Every unit goes through the stages of its pipeline; each stage gives it a task:')}
        </Text>
        <MiniPipeline stages={example} />
      </Stack>
      <Group justify="flex-end">
        <Button onClick={onNext} data-testid="quickstart-welcome-next">
          {t("Let's start")}
        </Button>
      </Group>
    </Stack>
  );
}
