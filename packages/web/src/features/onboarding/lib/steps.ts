import type { TOnboarding } from '@stageline/shared';

/** The quickstart's steps, in order (docs/rules.md §Web). */
export const QuickstartSteps = ['welcome', 'account', 'workspace', 'project', 'pipeline', 'done'] as const;
export type TQuickstartStep = (typeof QuickstartSteps)[number];

export type TProgress = {
  signedIn: boolean;
  onboarding: TOnboarding | null;
  hasWorkspace: boolean;
  hasProject: boolean;
  hasPipeline: boolean;
  /** Direct invites waiting for the user's answer (GET invites/). */
  hasInvites: boolean;
};

/**
 * Where the quickstart opens: someone with invites waiting at the workspace step, which offers them
 * first (an invited person joins a team rather than founding one: docs/decisions.md, entry 156); a
 * visitor or a newcomer with nothing yet at the welcome; anyone else resumes at the first step
 * whose record does not exist yet (the done step when all do).
 */
export function startStep(progress: TProgress): TQuickstartStep {
  if (!progress.signedIn) return 'welcome';
  if (progress.hasInvites) return 'workspace';
  const missing: TQuickstartStep = !progress.hasWorkspace
    ? 'workspace'
    : !progress.hasProject
      ? 'project'
      : !progress.hasPipeline
        ? 'pipeline'
        : 'done';
  return missing === 'workspace' && progress.onboarding === 'pending' ? 'welcome' : missing;
}

/** The index of a step for the Stepper. */
export const stepIndex = (step: TQuickstartStep) => QuickstartSteps.indexOf(step);

/**
 * Where a reloaded quickstart resumes (decision 197): at the step the person was on, when that step
 * comes before the one the records alone suggest. The records skip a step whose record exists, but
 * the workspace step goes on to its invites and the pipeline step to a stage's settings once their
 * record is made; a reload there must not jump past them. Steps before the workspace are not
 * resumed (they hold no record), nor a step past where the records stop.
 */
export function resumeStep(start: TQuickstartStep, stored: TQuickstartStep | null): TQuickstartStep {
  if (stored === null || stepIndex(stored) < stepIndex('workspace') || stored === 'done') return start;
  if (stepIndex(start) < stepIndex('workspace')) return start;
  return stepIndex(stored) < stepIndex(start) ? stored : start;
}

export const isQuickstartStep = (value: unknown): value is TQuickstartStep =>
  typeof value === 'string' && (QuickstartSteps as readonly string[]).includes(value);
