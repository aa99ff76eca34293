import { Badge, Button, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconChartBar,
  IconEdit,
  IconForms,
  IconGitBranch,
  IconListDetails,
  IconPlayerPlay,
  IconTimeline,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, ReviewModeLabels, type TProject } from '@stageline/shared';
import { RecordDeleteButton, RecordView, type TRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import type { TProjectPatch } from '../api';
import { useOpenProject } from '../hooks/use-open-project';
import { useWorkspaceAbilities } from '../hooks/use-workspace-abilities';
import { useProjectRecord } from '../hooks/use-project-record';

/** What the app's routing puts on the project screen: the pipelines' progress (`overview`). */
export type TProjectOverview = (project: TProject, can: { createPipeline: boolean }) => ReactNode;

/**
 * A project at a glance: its pipelines' progress and who is loaded (`overview`, from the pipelines
 * feature through the app's routing), how many pipelines and units it holds, where to go, and its
 * review defaults.
 */
export default function ProjectScreen({ overview }: { overview?: TProjectOverview }) {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Project')}>
      {(project) => <Overview project={project} record={record} overview={overview} />}
    </RecordView>
  );
}

function Overview({
  project,
  record,
  overview,
}: {
  project: TProject;
  record: TRecord<TProject, TProjectPatch>;
  overview?: TProjectOverview;
}) {
  const { t } = useTranslation();
  const abilities = useWorkspaceAbilities(project.workspace);
  const { defaults } = project;
  const yesNo = (value: boolean) => (value ? t('Yes') : t('No'));
  return (
    <PageCard
      documentTitle={[project.name]}
      title={<span data-testid="project-name">{project.name}</span>}
      actions={
        <>
          <Button
            component={Link}
            to={paths.app.reviewSessions(project.id)}
            variant="default"
            leftSection={<IconPlayerPlay size={16} />}
            data-testid="project-reviews-open"
          >
            {t('Review sessions')}
          </Button>
          <Button
            component={Link}
            to={paths.app.projectReports(project.id)}
            variant="default"
            leftSection={<IconChartBar size={16} />}
            data-testid="project-reports-open"
          >
            {t('Reports')}
          </Button>
          <Button
            component={Link}
            to={paths.app.projectSchedule(project.id)}
            variant="default"
            leftSection={<IconTimeline size={16} />}
            data-testid="project-schedule-open"
          >
            {t('Schedule')}
          </Button>
          <Button
            component={Link}
            to={paths.app.projectFields(project.id)}
            variant="default"
            leftSection={<IconForms size={16} />}
            data-testid="project-fields-open"
          >
            {t('Custom fields')}
          </Button>
          {(abilities?.projects.update ?? false) ? (
            <Button
              component={Link}
              to={paths.app.projectEdit(project.id)}
              variant="default"
              leftSection={<IconEdit size={16} />}
              data-testid="project-edit-open"
            >
              {t('Edit')}
            </Button>
          ) : null}
          {(abilities?.projects.delete ?? false) ? (
            <RecordDeleteButton record={record} name={project.name} testId="project-delete" />
          ) : null}
        </>
      }
    >
      <Stack gap="lg" data-testid="project-card" data-id={project.id}>
        {project.description ? <UserMarkdown text={project.description} testId="project-description" /> : null}
        {overview?.(project, { createPipeline: abilities?.pipelines.create ?? false })}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Section
            title={t('Pipelines')}
            count={project.pipelines_count}
            testId="project-pipelines-count"
            link={
              <Button
                component={Link}
                to={paths.app.pipelines(project.id)}
                variant="light"
                leftSection={<IconGitBranch size={16} />}
                data-testid="project-pipelines-link"
              >
                {t('Open pipelines')}
              </Button>
            }
          />
          <Section
            title={t('Units')}
            count={project.units_count}
            testId="project-units-count"
            link={
              <Button
                component={Link}
                to={paths.app.units(project.id)}
                variant="light"
                leftSection={<IconListDetails size={16} />}
                data-testid="project-units-link"
              >
                {t('Open units')}
              </Button>
            }
          />
        </SimpleGrid>
        <Stack gap={6} component="section" aria-label={t('Review defaults for new stages')}>
          <Title order={2} size="h5">
            {t('Review defaults for new stages')}
          </Title>
          <List size="sm" spacing={4} data-testid="project-defaults">
            <List.Item>
              {t('Review mode')}: <b>{t(ReviewModeLabels[defaults.review_mode])}</b>
            </List.Item>
            <List.Item>
              {t('Skip review when there are no reviewers')}: <b>{yesNo(defaults.skip_review_if_no_reviewers)}</b>
            </List.Item>
            <List.Item>
              {t('Accept edit as done')}: <b>{yesNo(defaults.accept_edit_as_done)}</b>
            </List.Item>
            <List.Item>
              {t('To do enabled')}: <b>{yesNo(defaults.todo_enabled)}</b>
            </List.Item>
          </List>
        </Stack>
      </Stack>
    </PageCard>
  );
}

function Section({ title, count, testId, link }: { title: string; count: number; testId: string; link: ReactNode }) {
  return (
    <Stack gap={6} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
      <Group justify="space-between">
        <Text fw={600}>{title}</Text>
        <Badge variant="light" size="lg" data-testid={testId}>
          {count}
        </Badge>
      </Group>
      <div>{link}</div>
    </Stack>
  );
}
