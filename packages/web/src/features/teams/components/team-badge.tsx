import { Badge, ColorSwatch, Group } from '@mantine/core';

/** A team as other screens name it: its colour and name. */
export function TeamBadge({ team }: { team: { id: number; name: string; color: string } }) {
  return (
    <Badge
      variant="outline"
      color="gray"
      leftSection={<ColorSwatch color={team.color} size={10} />}
      data-testid="team-badge"
      data-team-id={team.id}
    >
      <Group gap={4} component="span">
        {team.name}
      </Group>
    </Badge>
  );
}
