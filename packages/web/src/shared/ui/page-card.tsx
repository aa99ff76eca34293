import { Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from './document-title';
import classes from './page-card.module.css';

/**
 * The card every record screen sits in (docs/rules.md §Web): centred on large screens, full width under
 * 990 px with its header kept in one horizontal row, and edge to edge under 576 px where the header
 * stacks. `wide` screens (data-dense ones: the units matrix, My work, the pipeline view) take the whole
 * width beside the sidebar at every size; forms keep the centred card (decision 203).
 */
export function PageCard({
  title,
  documentTitle,
  actions,
  wide = false,
  children,
}: {
  title: ReactNode;
  /** The tab's title, most specific first; by default the card's title when that is text. */
  documentTitle?: readonly (string | null | undefined)[];
  actions?: ReactNode;
  /** A data-dense screen: the whole width, not the centred 960 px (decision 203). */
  wide?: boolean;
  children?: ReactNode;
}) {
  useDocumentTitle(documentTitle ?? [typeof title === 'string' ? title : null]);
  return (
    <Card
      className={wide ? `${classes.card} ${classes.wide}` : classes.card}
      withBorder
      padding="lg"
      radius="md"
      data-testid="page-card"
      data-wide={wide ? 'true' : undefined}
    >
      <Stack gap="md">
        <Group className={classes.header} justify="space-between" align="center" wrap="nowrap">
          <Title order={1} size="h2" className={classes.title}>
            {title}
          </Title>
          {actions ? (
            <Group className={classes.actions} gap="xs">
              {actions}
            </Group>
          ) : null}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
