import type { TFunction } from 'i18next';
import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import type { TCrumb, TRecordCrumbsProps } from '../../shared/ui/crumb';

export type { TCrumb };

/**
 * A route's `handle`: how it appears in the breadcrumb trail. `crumb` is one step known from the
 * URL; `Crumbs` renders steps that come from a record (a unit's pipeline, a task's project,
 * pipeline and unit) with `CrumbStep`.
 */
export type TRouteHandle = {
  crumb?: (params: Params, t: TFunction) => TCrumb;
  Crumbs?: ComponentType<TRecordCrumbsProps>;
};
