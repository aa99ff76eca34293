import { Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from './document-title';
import classes from './page-card.module.css';

/**
 * The card every record screen sits in (docs/rules.md §Web): centred on large screens, full width under
 * 990 px with its header kept in one horizontal row, and edge to edge under 576 px where the header
 * stacks.
 */
export function PageCard({
  title,
  documentTitle,
  actions,
  children,
}: {
  title: ReactNode;
  /** The tab's title, most specific first; by default the card's title when that is text. */
  documentTitle?: readonly (string | null | undefined)[];
  actions?: ReactNode;
  children?: ReactNode;
}) {
  useDocumentTitle(documentTitle ?? [typeof title === 'string' ? title : null]);
  return (
    <Card className={classes.card} withBorder padding="lg" radius="md" data-testid="page-card">
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
