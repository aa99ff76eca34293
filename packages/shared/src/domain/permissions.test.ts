import { describe, expect, it } from 'vitest';
import {
  can,
  canShareReview,
  canWork,
  checkRemoval,
  checkRoleChange,
  Permissions,
  Roles,
  type TRole,
} from './permissions';

/** docs/rules.md §Roles written out as the expected table: every role × every action. */
const expected: Record<string, TRole[]> = {
  'workspace.view': ['guest', 'member', 'admin', 'owner'],
  'workspace.leave': ['guest', 'member', 'admin', 'owner'],
  'workspace.update': ['admin', 'owner'],
  'workspace.invite': ['admin', 'owner'],
  'workspace.manage_link': ['admin', 'owner'],
  'workspace.remove_users': ['admin', 'owner'],
  'workspace.change_roles': ['admin', 'owner'],
  'workspace.delete': ['owner'],
  'workspace.delegate': ['owner'],
  'project.view': ['guest', 'member', 'admin', 'owner'],
  'project.create': ['member', 'admin', 'owner'],
  'project.update': ['member', 'admin', 'owner'],
  'project.delete': ['admin', 'owner'],
  'pipeline.view': ['guest', 'member', 'admin', 'owner'],
  'pipeline.create': ['member', 'admin', 'owner'],
  'pipeline.update': ['member', 'admin', 'owner'],
  'pipeline.delete': ['admin', 'owner'],
  'unit.view': ['guest', 'member', 'admin', 'owner'],
  'unit.create': ['member', 'admin', 'owner'],
  'unit.update': ['member', 'admin', 'owner'],
  'unit.delete': ['admin', 'owner'],
  'stage.view': ['guest', 'member', 'admin', 'owner'],
  'stage.update': ['member', 'admin', 'owner'],
  'team.view': ['guest', 'member', 'admin', 'owner'],
  'team.manage': ['admin', 'owner'],
  // docs/time.md: any Member logs time; a task's assignees and reviewers of any role too (canLogTime).
  'time.log': ['member', 'admin', 'owner'],
  'time.moderate': ['admin', 'owner'],
  'task.view': ['guest', 'member', 'admin', 'owner'],
  'task.work': ['member', 'admin', 'owner'],
  'task.set_status': ['member', 'admin', 'owner'],
  'task.update': ['member', 'admin', 'owner'],
  'task.review': ['member', 'admin', 'owner'],
  'comment.view': ['guest', 'member', 'admin', 'owner'],
  'comment.create': ['guest', 'member', 'admin', 'owner'],
  'comment.moderate': ['admin', 'owner'],
  'attachment.view': ['guest', 'member', 'admin', 'owner'],
  'attachment.create': ['guest', 'member', 'admin', 'owner'],
  'attachment.moderate': ['admin', 'owner'],
  'view.create': ['guest', 'member', 'admin', 'owner'],
  'view.share': ['member', 'admin', 'owner'],
  'view.moderate': ['admin', 'owner'],
  'webhook.view': ['admin', 'owner'],
  'webhook.manage': ['admin', 'owner'],
  // docs/custom-fields.md: Admins define fields; values follow unit.update and task.update.
  'field.view': ['guest', 'member', 'admin', 'owner'],
  'field.manage': ['admin', 'owner'],
  'audit.view': ['admin', 'owner'],
  'history.view': ['guest', 'member', 'admin', 'owner'],
  // docs/schedule.md: milestones for Members and above; the calendar and others' days off for Admins.
  'milestone.view': ['guest', 'member', 'admin', 'owner'],
  'milestone.manage': ['member', 'admin', 'owner'],
  'calendar.view': ['guest', 'member', 'admin', 'owner'],
  'calendar.manage': ['admin', 'owner'],
  // docs/review-sessions.md: Members share too where the workspace allows it (canShareReview).
  'review_session.view': ['guest', 'member', 'admin', 'owner'],
  'review_session.manage': ['member', 'admin', 'owner'],
  'review_session.share': ['admin', 'owner'],
};

describe('the permission table', () => {
  const cells = Object.entries(Permissions).flatMap(([resource, actions]) =>
    Object.keys(actions).flatMap((action) => Roles.map((role) => ({ resource, action, role }))),
  );

  it('has an expectation for every action', () => {
    const actions = Object.entries(Permissions).flatMap(([r, a]) => Object.keys(a).map((x) => `${r}.${x}`));
    expect(actions.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(cells)('$role may $resource.$action: as docs/rules.md §Roles says', ({ resource, action, role }) => {
    const allowed = can(role, resource as 'project', action as 'view');
    expect(allowed).toBe(expected[`${resource}.${action}`]!.includes(role));
  });

  it('refuses everything to a non-member', () => {
    expect(can(null, 'project', 'view')).toBe(false);
    expect(can(undefined, 'workspace', 'leave')).toBe(false);
  });
});

describe('sharing review sessions', () => {
  it('is for Admins, and for Members only where the workspace allows it', () => {
    const table = Roles.map((role) => [role, canShareReview(role, false), canShareReview(role, true)]);
    expect(table).toEqual([
      ['guest', false, false],
      ['member', false, true],
      ['admin', true, true],
      ['owner', true, true],
    ]);
    expect(canShareReview(null, true)).toBe(false);
  });
});

describe('task work and role rules', () => {
  it('lets assignees work on their task whatever their role', () => {
    expect(canWork('guest', true)).toBe(true);
    expect(canWork('guest', false)).toBe(false);
    expect(canWork('member', false)).toBe(true);
  });

  it('never changes the owner role and gives ownership only by delegation', () => {
    expect(checkRoleChange('admin', 'member', 'admin')).toBeNull();
    expect(checkRoleChange('owner', 'admin', 'guest')).toBeNull();
    expect(checkRoleChange('admin', 'owner', 'member')).toBe('owner_role_fixed');
    expect(checkRoleChange('owner', 'member', 'owner')).toBe('use_delegation');
    expect(checkRoleChange('member', 'guest', 'member')).toBe('not_allowed');
  });

  it('never removes the owner; only admins and the owner remove', () => {
    expect(checkRemoval('admin', 'member')).toBeNull();
    expect(checkRemoval('owner', 'owner')).toBe('owner_cannot_be_removed');
    expect(checkRemoval('member', 'guest')).toBe('not_allowed');
  });
});
