import { describe, expect, test } from 'vitest';
import { resumeStep, startStep, type TProgress } from './steps';

const none: TProgress = {
  signedIn: true,
  onboarding: 'pending',
  hasWorkspace: false,
  hasProject: false,
  hasPipeline: false,
  hasInvites: false,
};

describe('startStep', () => {
  test('a visitor and a newcomer start at the welcome', () => {
    expect(startStep({ ...none, signedIn: false, onboarding: null })).toBe('welcome');
    expect(startStep(none)).toBe('welcome');
  });

  test('a resumed quickstart opens at the first step whose record is missing', () => {
    expect(startStep({ ...none, onboarding: 'skipped' })).toBe('workspace');
    expect(startStep({ ...none, onboarding: 'skipped', hasWorkspace: true })).toBe('project');
    expect(startStep({ ...none, hasWorkspace: true, hasProject: true })).toBe('pipeline');
    expect(startStep({ ...none, hasWorkspace: true, hasProject: true, hasPipeline: true })).toBe('done');
  });

  test('pending invites open the workspace step, which offers them, whatever exists already', () => {
    expect(startStep({ ...none, hasInvites: true })).toBe('workspace');
    expect(startStep({ ...none, hasInvites: true, hasWorkspace: true, hasProject: true })).toBe('workspace');
    expect(startStep({ ...none, signedIn: false, onboarding: null, hasInvites: true })).toBe('welcome');
  });
});

describe('resumeStep (decision 197)', () => {
  test('a reload on the invites of a made workspace stays there, not on the project', () => {
    expect(resumeStep('project', 'workspace')).toBe('workspace');
  });

  test('a reload on the stage settings of a built pipeline stays there, not on done', () => {
    expect(resumeStep('done', 'pipeline')).toBe('pipeline');
  });

  test('never past the records, never back to the welcome or the account, nothing stored: the start', () => {
    expect(resumeStep('project', 'pipeline')).toBe('project');
    expect(resumeStep('workspace', 'done')).toBe('workspace');
    expect(resumeStep('pipeline', 'welcome')).toBe('pipeline');
    expect(resumeStep('pipeline', 'account')).toBe('pipeline');
    expect(resumeStep('pipeline', null)).toBe('pipeline');
    expect(resumeStep('welcome', 'workspace')).toBe('welcome');
  });
});
