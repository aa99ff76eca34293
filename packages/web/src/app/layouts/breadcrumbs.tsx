import { Group } from '@mantine/core';
import { useMatches, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { CrumbLabel, CrumbStep } from '../../shared/ui/crumb';
import type { TRouteHandle } from '../routing/crumbs';

/**
 * Home, then the steps of the matched routes: project, pipeline, unit (with its pipeline) or task
 * (with its project, pipeline and unit), then Edit on edit screens (docs/decisions.md, entry 60).
 */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const params = useParams();
  const steps = useMatches().flatMap((match) => {
    const handle = match.handle as TRouteHandle | undefined;
    return handle?.crumb || handle?.Crumbs ? [{ id: match.id, handle }] : [];
  });
  return (
    <Group component="nav" aria-label={t('Breadcrumbs')} data-testid="breadcrumbs" gap={6} wrap="nowrap">
      <CrumbLabel label={t('Home')} to={steps.length > 0 ? paths.app.dashboard() : undefined} />
      {steps.map(({ id, handle }, index) => {
        const current = index === steps.length - 1;
        if (handle.Crumbs) return <handle.Crumbs key={id} params={params} current={current} />;
        const crumb = handle.crumb!(params, t);
        return <CrumbStep key={id} label={crumb.label} to={crumb.to} current={current} />;
      })}
    </Group>
  );
}
