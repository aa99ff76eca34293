import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TRole } from '@stageline/shared';
import { roleColor, roleLabel } from '../lib/roles';

/** A member's role, translated. */
export function RoleBadge({ role, testId }: { role: TRole; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={roleColor[role]}
      variant="light"
      styles={{ label: { overflow: 'visible' } }}
      data-testid={testId}
      data-role={role}
    >
      {roleLabel(role, t)}
    </Badge>
  );
}
