import { Box, Button, Container, Group, Paper, Stepper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, StorageKeys, type TMe } from '@stageline/shared';
import { storage } from '../../../shared/lib/storage';
import { queryClient } from '../../../shared/api/query-client';
import { QueryProvider } from '../../../shared/api/query-provider';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { LanguageSwitcher } from '../../../shared/ui/language-switcher';
import { Logo } from '../../../shared/ui/logo';
import { ThemeSwitcher } from '../../../shared/ui/theme-switcher';
import { useSession } from '../../auth';
import { pipelinesQueryOptions } from '../../pipelines/builder';
import { projectsQueryOptions } from '../../projects';
import { getCurrentWorkspaceId, myInvitesQueryOptions, rememberWorkspace } from '../../workspaces';
import { useSetOnboarding } from '../api';
import { AccountMenu } from '../components/account-menu';
import { AccountStep } from '../components/account-step';
import { DoneStep } from '../components/done-step';
import classes from '../components/onboarding.module.css';
import { PipelineStep } from '../components/pipeline-step';
import { ProjectStep } from '../components/project-step';
import { WelcomeStep } from '../components/welcome-step';
import { WorkspaceStep } from '../components/workspace-step';
import {
  isQuickstartStep,
  QuickstartSteps,
  resumeStep,
  startStep,
  stepIndex,
  type TQuickstartStep,
} from '../lib/steps';

type TRecords = {
  workspaceId: number | null;
  projectId: number | null;
  pipelineId: number | null;
  built: boolean;
  invites: boolean;
};
const noRecords: TRecords = { workspaceId: null, projectId: null, pipelineId: null, built: false, invites: false };

/**
 * The records the quickstart continues from: the current workspace (else the recent or the first
 * one), its newest project, and that project's first pipeline with stages (else its newest one);
 * and whether invites wait for the user's answer (the workspace step offers them first).
 */
async function findRecords(user: TMe): Promise<TRecords> {
  const current = getCurrentWorkspaceId();
  const workspaceId =
    [current, user.recent_workspace].find((id) => id !== null && user.workspaces.includes(id)) ??
    user.workspaces[0] ??
    null;
  // Invites only choose where the quickstart opens: without an answer it opens as it would without them.
  const invites = await queryClient.fetchQuery(myInvitesQueryOptions()).then(
    (list) => list.length > 0,
    () => false,
  );
  if (workspaceId === null) return { ...noRecords, invites };
  const projects = await queryClient.fetchQuery(projectsQueryOptions(workspaceId));
  const project = projects.at(-1);
  if (!project) return { ...noRecords, workspaceId, invites };
  const pipelines = await queryClient.fetchQuery(pipelinesQueryOptions(project.id));
  const pipeline = pipelines.find((p) => p.stages_count > 0) ?? pipelines.at(-1);
  return {
    workspaceId,
    projectId: project.id,
    pipelineId: pipeline?.id ?? null,
    built: (pipeline?.stages_count ?? 0) > 0,
    invites,
  };
}

/**
 * `/app/quickstart` (docs/rules.md §Web): welcome and tutorial, account (sign-up or sign-in in
 * place for a visitor), workspace with optional invites, project, first pipeline, done. Every step
 * creates real records through the API; skipping stores `skipped`, finishing `done`.
 */
export default function QuickstartRoute() {
  return (
    <QueryProvider>
      <QuickstartScreen />
    </QueryProvider>
  );
}

function QuickstartScreen() {
  const { t } = useTranslation();
  const { status, user } = useSession();
  // Signing in on the account step carries on past it, instead of starting over at the welcome.
  const [signedInHere, setSignedInHere] = useState(false);
  const wasAnonymous = useRef(status === 'anonymous');
  useEffect(() => {
    if (status === 'anonymous') wasAnonymous.current = true;
    else if (status === 'authenticated' && wasAnonymous.current) setSignedInHere(true);
  }, [status]);
  const records = useQuery({
    queryKey: ['quickstart', 'records', user?.id ?? 0],
    queryFn: () => (user ? findRecords(user) : noRecords),
    enabled: status !== 'loading',
    staleTime: Infinity,
    gcTime: 0,
  });

  return (
    <Box className={classes.page}>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo to={user ? paths.app.dashboard() : paths.home()} />
            <Group gap="xs" wrap="nowrap">
              <LanguageSwitcher />
              <ThemeSwitcher />
              {user ? <AccountMenu user={user} /> : null}
            </Group>
          </Group>
        </Container>
      </header>
      <Container size="lg" py="xl" w="100%">
        {status === 'loading' || !records.data ? (
          <FullScreenLoader label={t('Loading...')} />
        ) : (
          <Flow key={user?.id ?? 'visitor'} user={user} records={records.data} signedInHere={signedInHere} />
        )}
      </Container>
    </Box>
  );
}

const stepKey = (userId: number) => `${StorageKeys.quickstartStepPrefix}${userId}`;

function Flow({ user, records, signedInHere }: { user: TMe | null; records: TRecords; signedInHere: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setOnboarding = useSetOnboarding();
  const [finishedBefore] = useState(user?.onboarding === 'done');
  const [workspaceId, setWorkspaceId] = useState(records.workspaceId);
  const [projectId, setProjectId] = useState(records.projectId);
  const [pipelineId, setPipelineId] = useState(records.pipelineId);
  const [active, setActive] = useState<TQuickstartStep>(() => {
    const start = startStep({
      signedIn: user !== null,
      onboarding: user?.onboarding ?? null,
      hasWorkspace: records.workspaceId !== null,
      hasProject: records.projectId !== null,
      hasPipeline: records.built,
      hasInvites: records.invites,
    });
    if (signedInHere && stepIndex(start) < stepIndex('workspace')) return 'workspace';
    const stored = user ? storage.get(stepKey(user.id)) : null;
    return resumeStep(start, isQuickstartStep(stored) ? stored : null);
  });
  // The step the person is on, for a reload (decision 197); written when the step changes, not when
  // the user record does (a skip changes it on the way out, after forgetting the step).
  const userId = user?.id;
  useEffect(() => {
    if (userId !== undefined) storage.set(stepKey(userId), active);
  }, [userId, active]);
  const go = (step: TQuickstartStep) => setActive(step);
  // A signed-in user has nothing to do on the account step: it is passed over.
  const next = () =>
    setActive((step) => {
      const following = QuickstartSteps[Math.min(stepIndex(step) + 1, QuickstartSteps.length - 1)]!;
      return following === 'account' && user ? 'workspace' : following;
    });

  const finishing = user !== null && active === 'done' && user.onboarding !== 'done';
  const { mutate } = setOnboarding;
  useEffect(() => {
    if (finishing && user) mutate({ userId: user.id, onboarding: 'done' });
  }, [finishing, user, mutate]);

  if (finishedBefore) {
    return (
      <Paper withBorder radius="md" p="xl">
        <DoneStep projectId={projectId} pipelineId={records.built ? pipelineId : null} again />
      </Paper>
    );
  }

  const skip = async () => {
    if (user && user.onboarding !== 'skipped') {
      try {
        await setOnboarding.mutateAsync({ userId: user.id, onboarding: 'skipped' });
      } catch {
        return; // The transport has said why; the visitor stays on the quickstart.
      }
    }
    // A skip ends this visit: coming back resumes where the records stop, not at this step (decision 197).
    if (user) storage.remove(stepKey(user.id));
    await navigate(paths.app.dashboard());
  };
  const labels: Record<TQuickstartStep, string> = {
    welcome: t('Welcome'),
    account: t('Account'),
    workspace: t('Workspace'),
    project: t('Project'),
    pipeline: t('Pipeline'),
    done: t('Done'),
  };
  const content: Record<TQuickstartStep, () => ReactNode> = {
    welcome: () => <WelcomeStep onNext={next} />,
    account: () => <AccountStep user={user} onNext={next} />,
    workspace: () => (
      <WorkspaceStep
        workspaceId={workspaceId}
        onChosen={(id) => {
          if (id !== workspaceId) {
            setProjectId(null);
            setPipelineId(null);
          }
          setWorkspaceId(id);
          // Remembered for the next sign-in too, as the switcher does (docs/decisions.md, entry 157).
          void rememberWorkspace(user, id);
        }}
        onNext={next}
      />
    ),
    project: () =>
      workspaceId === null ? null : (
        <ProjectStep
          workspaceId={workspaceId}
          projectId={projectId}
          onChosen={(id) => {
            if (id !== projectId) setPipelineId(null);
            setProjectId(id);
          }}
          onNext={next}
        />
      ),
    pipeline: () =>
      projectId === null ? null : (
        <PipelineStep projectId={projectId} pipelineId={pipelineId} onChosen={setPipelineId} onNext={next} />
      ),
    done: () => <DoneStep projectId={projectId} pipelineId={pipelineId} />,
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="quickstart">
      <Group justify="flex-end" mb="sm" mih={28}>
        {user && active !== 'done' ? (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => void skip()}
            loading={setOnboarding.isPending}
            data-testid="quickstart-skip"
          >
            {t('Skip for now')}
          </Button>
        ) : null}
        {!user ? (
          <Button variant="subtle" size="compact-sm" onClick={() => void navigate(paths.home())}>
            {t('Back to the home page')}
          </Button>
        ) : null}
      </Group>
      <Stepper
        active={stepIndex(active)}
        onStepClick={(index) => go(QuickstartSteps[index]!)}
        allowNextStepsSelect={false}
        size="sm"
        wrap
      >
        {QuickstartSteps.map((step) => (
          <Stepper.Step key={step} label={labels[step]} data-testid={`quickstart-step-${step}`}>
            {active === step ? content[step]() : null}
          </Stepper.Step>
        ))}
      </Stepper>
    </Paper>
  );
}
