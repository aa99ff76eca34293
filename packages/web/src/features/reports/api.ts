import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ZBlockingReport,
  ZBurnupReport,
  ZEstimatesReport,
  ZFirstPassReport,
  ZRoundsReport,
  type TBlockingReport,
  type TBurnupReport,
  type TEstimatesReport,
  type TFirstPassReport,
  type TReportQuery,
  type TRoundsReport,
} from '@stageline/shared';
import { api } from '../../shared/api';

/**
 * Report calls (docs/reports.md). Every key starts with `['reports']`, which a live task event
 * invalidates (decision 188): `['reports', projectId, kind, filters]`.
 */
export const reportKeys = {
  all: ['reports'] as const,
  report: (projectId: number, kind: TReportKind, filters: TReportQuery) =>
    ['reports', projectId, kind, filters] as const,
};

type TReports = {
  burnup: TBurnupReport;
  first_pass: TFirstPassReport;
  rounds: TRoundsReport;
  blocking: TBlockingReport;
  estimates: TEstimatesReport;
};
export type TReportKind = keyof TReports;

const schemas = {
  burnup: ZBurnupReport,
  first_pass: ZFirstPassReport,
  rounds: ZRoundsReport,
  blocking: ZBlockingReport,
  estimates: ZEstimatesReport,
};

/** GET projects/{id}/reports/{kind}/ with the filters. */
export const reportQueryOptions = <K extends TReportKind>(projectId: number, kind: K, filters: TReportQuery) =>
  queryOptions({
    queryKey: reportKeys.report(projectId, kind, filters),
    queryFn: async ({ signal }): Promise<TReports[K]> =>
      schemas[kind].parse(
        await api.get(`projects/${projectId}/reports/${kind}/`, { query: filters, signal, silent: true }),
      ) as TReports[K],
  });

export const useReport = <K extends TReportKind>(projectId: number, kind: K, filters: TReportQuery) =>
  useQuery({ ...reportQueryOptions(projectId, kind, filters), placeholderData: (previous) => previous });
