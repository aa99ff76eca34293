import type { TFunction } from 'i18next';
import type { Params } from 'react-router';

export type TCrumb = { label: string; to?: string };

/** A route's `handle`: how it appears in the breadcrumb trail. */
export type TRouteHandle = {
  crumb?: (params: Params, t: TFunction) => TCrumb;
};
