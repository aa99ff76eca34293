import type { TFunction } from 'i18next';
import { AssignableRoles, type TRole } from '@stageline/shared';

/** English names of roles (docs/rules.md §Roles), translated where shown. */
export function roleLabel(role: TRole, t: TFunction): string {
  switch (role) {
    case 'guest':
      return t('Guest');
    case 'member':
      return t('Member');
    case 'admin':
      return t('Admin');
    case 'owner':
      return t('Owner');
  }
}

export const roleColor: Record<TRole, string> = { guest: 'gray', member: 'blue', admin: 'grape', owner: 'orange' };

/** Options of a role select: the roles an invite or a role change may offer. */
export const assignableRoleOptions = (t: TFunction) =>
  AssignableRoles.map((role) => ({ value: role, label: roleLabel(role, t) }));

export const isAssignableRole = (value: string | null): value is (typeof AssignableRoles)[number] =>
  (AssignableRoles as readonly (string | null)[]).includes(value);
