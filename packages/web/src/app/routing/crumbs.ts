import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { Params } from 'react-router';

/** A crumb's label may be a component that reads the record's name from its query. */
export type TCrumb = { label: ReactNode; to?: string };

/** A route's `handle`: how it appears in the breadcrumb trail. */
export type TRouteHandle = {
  crumb?: (params: Params, t: TFunction) => TCrumb;
};
