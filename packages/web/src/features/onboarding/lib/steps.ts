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
