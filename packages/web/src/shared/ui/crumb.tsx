import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, type Params } from 'react-router';

/** One step of the breadcrumb trail; its label may be a component that reads a record's name. */
export type TCrumb = { label: ReactNode; to?: string };

/**
 * What a route's record crumbs receive (`TRouteHandle.Crumbs`): the URL's params, and whether the
 * route is the page itself (its last step is then plain text, not a link).
 */
export type TRecordCrumbsProps = { params: Params; current: boolean };

/**
 * One step after Home, with the separator before it: a link, or plain text for the current page or
 * a step without a page. Steps carry their own separator so that record crumbs not known yet (a
 * unit's pipeline before the unit loads) take no room (docs/decisions.md, entry 60).
 */
export function CrumbStep({ label, to, current = false }: TCrumb & { current?: boolean }) {
  return (
    <>
      <Text component="span" size="sm" c="dimmed" aria-hidden>
        /
      </Text>
      <CrumbLabel label={label} to={current ? undefined : to} />
    </>
  );
}

/** A step's label: a link when it has a page to go to. */
export function CrumbLabel({ label, to }: TCrumb) {
  return to ? (
    <Anchor component={Link} to={to} size="sm" truncate>
      {label}
    </Anchor>
  ) : (
    <Text component="span" size="sm" fw={500} truncate>
      {label}
    </Text>
  );
}
