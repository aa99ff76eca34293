/**
 * Who may do what (docs/rules.md §Roles), as one table. The server's policy module applies
 * it to every route; the web app reads the same table to hide what the server would refuse.
 */

export const Roles = ['guest', 'member', 'admin', 'owner'] as const;
export type TRole = (typeof Roles)[number];
/** Roles an invite or a role change may offer; ownership moves only by delegation. */
export const AssignableRoles = ['guest', 'member', 'admin'] as const;
export type TAssignableRole = (typeof AssignableRoles)[number];

const rank: Record<TRole, number> = { guest: 0, member: 1, admin: 2, owner: 3 };

/** true when `role` is `minimum` or above. */
export function atLeast(role: TRole, minimum: TRole): boolean {
  return rank[role] >= rank[minimum];
}

/** The least role for each action on each kind of record. */
export const Permissions = {
  workspace: {
    view: 'guest',
    leave: 'guest',
    update: 'admin',
    invite: 'admin',
    manage_link: 'admin',
    remove_users: 'admin',
    change_roles: 'admin',
    delete: 'owner',
    delegate: 'owner',
  },
  project: { view: 'guest', create: 'member', update: 'member', delete: 'admin' },
  pipeline: { view: 'guest', create: 'member', update: 'member', delete: 'admin' },
  unit: { view: 'guest', create: 'member', update: 'member', delete: 'admin' },
  stage: { view: 'guest', update: 'member' },
  /** Teams of a workspace (docs/review-rules.md): everyone sees them, Admins manage them. */
  team: { view: 'guest', manage: 'admin' },
  /** Reviewing is also open to a Guest who is a reviewer of the task: see `canReview`. */
  task: { view: 'guest', work: 'member', set_status: 'member', update: 'member', review: 'member' },
  /**
   * Saved views: anyone who sees a project saves their own; sharing one with the workspace is for
   * Members and above; Admins may change or delete anyone's shared view.
   */
  view: { create: 'guest', share: 'member', moderate: 'admin' },
  /** A workspace's webhooks and their delivery log: they carry its data to other systems. */
  webhook: { view: 'admin', manage: 'admin' },
  /**
   * The workspace audit log (docs/history-and-audit.md): sign-ins, tokens, exports, roles… of
   * everyone, so Admins and the Owner only; nobody may change or delete an entry.
   */
  audit: { view: 'admin' },
  /** A unit's or task's history of changes: whoever sees the record sees its history. */
  history: { view: 'guest' },
  /** Authors edit and delete their own comments; `moderate`: delete anyone's. */
  comment: { view: 'guest', create: 'guest', moderate: 'admin' },
  /**
   * Files (docs/files.md): anyone who sees a task or unit attaches files to it (a reviewer's
   * reference, an artist's render); authors delete their own, `moderate`: anyone's.
   */
  attachment: { view: 'guest', create: 'guest', moderate: 'admin' },
  /**
   * Time logs (docs/time.md): `log` on any task one sees (assignees and reviewers also below it, see
   * `canLogTime`); everyone changes their own logs, `moderate`: anyone's, and sees everyone's.
   */
  time: { log: 'member', moderate: 'admin' },
  /**
   * Custom fields of a project (docs/custom-fields.md): everyone who sees it reads their definitions;
   * Admins define, change and archive them. Values are set with the unit's or task's `update`.
   */
  field: { view: 'guest', manage: 'admin' },
  /**
   * The schedule (docs/schedule.md): everyone sees milestones and the forecast, Members and above
   * make and change milestones; the workspace's working days and holidays, and anyone's days off,
   * are for Admins (each person sets their own days off whatever their role).
   */
  milestone: { view: 'guest', manage: 'member' },
  calendar: { view: 'guest', manage: 'admin' },
  /**
   * Review sessions (docs/review-sessions.md): everyone who sees the project plays them; Members build,
   * reorder and delete them; sharing one with a client is for Admins (Members too where the
   * workspace allows it, see `canShareReview`).
   */
  review_session: { view: 'guest', manage: 'member', share: 'admin' },
} as const satisfies Record<string, Record<string, TRole>>;

export type TResource = keyof typeof Permissions;
export type TAction<R extends TResource> = keyof (typeof Permissions)[R];

/** May a member with `role` do `action` on a record of `resource`? */
export function can<R extends TResource>(role: TRole | null | undefined, resource: R, action: TAction<R>): boolean {
  if (!role) return false;
  const table = Permissions[resource] as Record<TAction<R>, TRole>;
  return atLeast(role, table[action]);
}

/** Accept or reject a task: its reviewers may, whatever their role (Guests included, docs/rules.md §Roles). */
export function canReview(isReviewer: boolean): boolean {
  return isReviewer;
}

/** Start or submit a task: its assignees may, and any Member or above (docs/rules.md §Tasks). */
export function canWork(role: TRole | null | undefined, isAssignee: boolean): boolean {
  return isAssignee || can(role, 'task', 'work');
}

/** Log time on a task: its assignees and reviewers, whatever their role, and any Member or above (docs/time.md). */
export function canLogTime(role: TRole | null | undefined, isAssigneeOrReviewer: boolean): boolean {
  return Boolean(role) && (isAssigneeOrReviewer || can(role, 'time', 'log'));
}

/** Create or revoke a client link of a review session: Admins, and Members where the workspace allows it. */
export function canShareReview(role: TRole | null | undefined, membersShare: boolean): boolean {
  return can(role, 'review_session', 'share') || (membersShare && can(role, 'review_session', 'manage'));
}

export type TRoleChangeRefusal = 'not_allowed' | 'owner_role_fixed' | 'use_delegation';

/**
 * May `actor` give `target` the role `next`? The owner's role never changes this way, and nobody
 * becomes owner except by delegation (docs/rules.md §Roles).
 */
export function checkRoleChange(actor: TRole, target: TRole, next: TRole): TRoleChangeRefusal | null {
  if (!can(actor, 'workspace', 'change_roles')) return 'not_allowed';
  if (target === 'owner') return 'owner_role_fixed';
  if (next === 'owner') return 'use_delegation';
  return null;
}

/** May `actor` remove a member whose role is `target`? Never the owner. */
export function checkRemoval(actor: TRole, target: TRole): 'not_allowed' | 'owner_cannot_be_removed' | null {
  if (!can(actor, 'workspace', 'remove_users')) return 'not_allowed';
  if (target === 'owner') return 'owner_cannot_be_removed';
  return null;
}
