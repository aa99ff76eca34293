import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link, useMatches, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import type { TCrumb, TRouteHandle } from '../routing/crumbs';

/** Home, project, pipeline or unit, then Edit on edit screens (product.md §2). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const params = useParams();
  const matches = useMatches();
  const crumbs: TCrumb[] = [{ label: t('Home'), to: paths.app.dashboard() }];
  for (const match of matches) {
    const handle = match.handle as TRouteHandle | undefined;
    if (handle?.crumb) crumbs.push(handle.crumb(params, t));
  }
  return (
    <MantineBreadcrumbs aria-label={t('Breadcrumbs')} data-testid="breadcrumbs" separatorMargin={6}>
      {crumbs.map((crumb, index) =>
        crumb.to && index < crumbs.length - 1 ? (
          <Anchor key={index} component={Link} to={crumb.to} size="sm">
            {crumb.label}
          </Anchor>
        ) : (
          <Text key={index} size="sm" fw={500} truncate>
            {crumb.label}
          </Text>
        ),
      )}
    </MantineBreadcrumbs>
  );
}
