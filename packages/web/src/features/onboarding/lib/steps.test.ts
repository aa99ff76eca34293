import { describe, expect, test } from 'vitest';
import { startStep, type TProgress } from './steps';

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
