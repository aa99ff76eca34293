import { Avatar, type AvatarProps } from '@mantine/core';
import type { TMe } from '@stageline/shared';
import { displayName } from '../session/session';

/** The user's avatar picture, or their initials on a colour of their name. */
export function UserAvatar({
  user,
  ...props
}: { user: Pick<TMe, 'avatar' | 'first_name' | 'last_name' | 'username'> } & AvatarProps) {
  const name = displayName(user);
  return <Avatar src={user.avatar ?? undefined} alt={name} name={name} color="initials" {...props} />;
}
