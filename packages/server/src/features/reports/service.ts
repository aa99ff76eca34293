import { sql } from 'drizzle-orm';
import {
  flowOrder,
  personName,
  ReportDefaultDays,
  ReportMaxDays,
  type TBlockingReport,
  ReportOverrunsShown,
  type TBurnupReport,
  type TEstimatesReport,
  type TFirstPassReport,
  type TReportQuery,
  type TRoundsReport,
} from '@stageline/shared';
import type { Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { authorizeProject } from '../projects';
import { rowsOf } from '../tasks';
import {
  blockingSql,
  burnupDoneSql,
  burnupScopeSql,
  estimatesSql,
  overrunsSql,
  firstPassSql,
  roundsSql,
  staysSql,
  throughputSql,
  type ReportScope,
} from './sql';

const DayMs = 24 * 60 * 60 * 1000;
type Ref = { id: number; name: string };
type StageInfo = { stage: Ref; pipeline: Ref };

export const ReportMessages = {
  fromAfterTo: 'The first day must not be after the last day.',
  tooLong: 'A report covers at most two years.',
} as const;

/** What every report starts from: the caller may see the project, and the filters name its records. */
export type ReportContext = {
  scope: ReportScope;
  stages: StageInfo[];
  /** Every stage of the reported pipelines, by id (upstream stages outside a stage filter too). */
  names: Map<number, Ref>;
  from: string;
  to: string;
};

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The days `from`…`to` (UTC), in order. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = startOf(from).getTime(); ms <= startOf(to).getTime(); ms += DayMs) days.push(dayOf(new Date(ms)));
  return days;
}

/** The Monday of the week of `day` (UTC). */
function mondayOf(day: string): string {
  const date = startOf(day);
  return dayOf(new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DayMs));
}

/**
 * Authorizes (anyone who may view the project, `authorizeProject`), checks the filters (a pipeline
 * or stage of another project is 404; a backwards or over-long range 400) and lists the stages
 * reported on, in flow order per pipeline.
 */
export async function reportContext(
  db: Db,
  {
    userId,
    projectId,
    query,
    now = new Date(),
  }: { userId: number; projectId: number; query: TReportQuery; now?: Date },
): Promise<ReportContext> {
  await authorizeProject(db, { userId, projectId, action: 'view' });
  const to = query.to ?? dayOf(now);
  const from = query.from ?? dayOf(new Date(startOf(to).getTime() - (ReportDefaultDays - 1) * DayMs));
  if (from > to) throw new FieldError({ from: [ReportMessages.fromAfterTo] });
  if ((startOf(to).getTime() - startOf(from).getTime()) / DayMs + 1 > ReportMaxDays)
    throw new FieldError({ from: [ReportMessages.tooLong] });

  const rows = await rowsOf<{
    id: number;
    name: string;
    kind: 'root' | 'end' | 'stage';
    pipeline_id: number;
    pipeline_name: string;
  }>(
    db,
    sql`select s.id, s.name, s.kind, p.id as pipeline_id, p.name as pipeline_name
      from pipelines p join stages s on s.pipeline_id = p.id
      where p.project_id = ${projectId}${query.pipeline === undefined ? sql`` : sql` and p.id = ${query.pipeline}`}
      order by p.id, s.id`,
  );
  const edges =
    rows.length === 0
      ? []
      : await rowsOf<{ source_id: number; target_id: number }>(
          db,
          sql`select e.source_id, e.target_id from stage_edges e join pipelines p on p.id = e.pipeline_id
            where p.project_id = ${projectId}`,
        );
  if (query.pipeline !== undefined && rows.length === 0) throw new AppError('not_found');
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const order = flowOrder(
    rows.map((row) => ({ id: Number(row.id), kind: row.kind })),
    edges.map((e) => ({ source: Number(e.source_id), target: Number(e.target_id) })),
  );
  let stages: StageInfo[] = order
    .map((id) => byId.get(id)!)
    .sort((a, b) => Number(a.pipeline_id) - Number(b.pipeline_id))
    .map((row) => ({
      stage: { id: Number(row.id), name: row.name },
      pipeline: { id: Number(row.pipeline_id), name: row.pipeline_name },
    }));
  const names = new Map(stages.map((s) => [s.stage.id, s.stage]));
  if (query.stage !== undefined) {
    stages = stages.filter((s) => s.stage.id === query.stage);
    if (stages.length === 0) throw new AppError('not_found');
  }
  return {
    from,
    to,
    stages,
    names,
    scope: {
      projectId,
      stageIds: stages.map((s) => s.stage.id),
      person: query.person ?? null,
      start: startOf(from),
      end: new Date(startOf(to).getTime() + DayMs),
      now,
    },
  };
}

const rate = (rounds: number, accepted: number) => (rounds === 0 ? null : accepted / rounds);

/** Burn-up per stage (done and scope at the end of each day) and throughput per week. */
export async function burnupReport(db: Db, ctx: ReportContext): Promise<TBurnupReport> {
  const days = daysBetween(ctx.from, ctx.to);
  const weeks = [...new Set(days.map(mondayOf))];
  if (ctx.stages.length === 0) return { from: ctx.from, to: ctx.to, days, weeks, stages: [] };
  type DayRow = { stage_id: number; day: string | null };
  const [done, made, throughput] = await Promise.all([
    rowsOf<DayRow & { delta: number }>(db, burnupDoneSql(ctx.scope)),
    rowsOf<DayRow & { made: number }>(db, burnupScopeSql(ctx.scope)),
    rowsOf<{ stage_id: number; week: string; done: number }>(db, throughputSql(ctx.scope)),
  ]);
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const weekIndex = new Map(weeks.map((week, i) => [week, i]));
  /** Per-day changes (index 0 also takes everything before the range), then running sums. */
  const cumulative = (rows: (DayRow & { n: number })[], stageId: number) => {
    const changes = new Array<number>(days.length).fill(0);
    for (const row of rows) {
      if (Number(row.stage_id) !== stageId) continue;
      changes[row.day === null ? 0 : (dayIndex.get(row.day) ?? 0)]! += Number(row.n);
    }
    let sum = 0;
    return changes.map((change) => (sum += change));
  };
  const doneRows = done.map((row) => ({ ...row, n: row.delta }));
  const madeRows = made.map((row) => ({ ...row, n: row.made }));
  return {
    from: ctx.from,
    to: ctx.to,
    days,
    weeks,
    stages: ctx.stages.map((info) => {
      const perWeek = new Array<number>(weeks.length).fill(0);
      for (const row of throughput) {
        const i = weekIndex.get(row.week);
        if (Number(row.stage_id) === info.stage.id && i !== undefined) perWeek[i]! += Number(row.done);
      }
      return {
        ...info,
        done: cumulative(doneRows, info.stage.id),
        scope: cumulative(madeRows, info.stage.id),
        throughput: perWeek,
      };
    }),
  };
}

/** First-pass approval rate per stage and per submitter, and over all. */
export async function firstPassReport(db: Db, ctx: ReportContext): Promise<TFirstPassReport> {
  const rows =
    ctx.stages.length === 0
      ? []
      : await rowsOf<{
          stage_id: number;
          submitter: number | null;
          first_name: string | null;
          last_name: string | null;
          username: string | null;
          rounds: number;
          accepted: number;
        }>(db, firstPassSql(ctx.scope));
  const sum = (list: typeof rows) => {
    const rounds = list.reduce((n, row) => n + Number(row.rounds), 0);
    const accepted = list.reduce((n, row) => n + Number(row.accepted), 0);
    return { rounds, accepted, rate: rate(rounds, accepted) };
  };
  const people = new Map<number, { person: Ref; list: typeof rows }>();
  for (const row of rows) {
    if (row.submitter === null || row.username === null) continue;
    const id = Number(row.submitter);
    const name = personName({ firstName: row.first_name ?? '', lastName: row.last_name ?? '', username: row.username });
    const entry = people.get(id) ?? { person: { id, name }, list: [] };
    entry.list.push(row);
    people.set(id, entry);
  }
  return {
    from: ctx.from,
    to: ctx.to,
    total: sum(rows),
    stages: ctx.stages.map((info) => ({
      ...info,
      ...sum(rows.filter((row) => Number(row.stage_id) === info.stage.id)),
    })),
    people: [...people.values()]
      .map(({ person, list }) => ({ person, ...sum(list) }))
      .sort((a, b) => b.rounds - a.rounds || a.person.name.localeCompare(b.person.name)),
  };
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Review rounds per task (mean, p90) and time in review and in edit, per stage and over all. */
export async function roundsReport(db: Db, ctx: ReportContext): Promise<TRoundsReport> {
  const empty = { tasks: 0, rounds_mean: null, rounds_p90: null, review_hours: null, edit_hours: null };
  if (ctx.stages.length === 0) return { from: ctx.from, to: ctx.to, total: empty, stages: [] };
  const [rounds, stays] = await Promise.all([
    rowsOf<{ stage_id: number | null; tasks: number; rounds_mean: number | null; rounds_p90: number | null }>(
      db,
      roundsSql(ctx.scope),
    ),
    rowsOf<{ stage_id: number | null; review_hours: number | null; edit_hours: number | null }>(
      db,
      staysSql(ctx.scope),
    ),
  ]);
  const row = (stageId: number | null) => {
    const r = rounds.find((x) => num(x.stage_id) === stageId);
    const s = stays.find((x) => num(x.stage_id) === stageId);
    return {
      tasks: Number(r?.tasks ?? 0),
      rounds_mean: num(r?.rounds_mean),
      rounds_p90: num(r?.rounds_p90),
      review_hours: num(s?.review_hours),
      edit_hours: num(s?.edit_hours),
    };
  };
  return {
    from: ctx.from,
    to: ctx.to,
    total: row(null),
    stages: ctx.stages.map((info) => ({ ...info, ...row(info.stage.id) })),
  };
}

/** Open, overdue and blocked tasks per stage now, and which upstream stages block them. */
export async function blockingReport(db: Db, ctx: ReportContext): Promise<TBlockingReport> {
  if (ctx.stages.length === 0) return { stages: [] };
  const rows = await rowsOf<{
    stage_id: number;
    upstream: number | null;
    open: number;
    overdue: number;
    blocked: number;
  }>(db, blockingSql(ctx.scope));
  return {
    stages: ctx.stages.map((info) => {
      const mine = rows.filter((row) => Number(row.stage_id) === info.stage.id);
      const counts = mine.find((row) => row.upstream === null);
      return {
        ...info,
        open: Number(counts?.open ?? 0),
        overdue: Number(counts?.overdue ?? 0),
        blocked: Number(counts?.blocked ?? 0),
        blocked_by: mine
          .filter((row) => row.upstream !== null)
          .map((row) => ({
            stage: ctx.names.get(Number(row.upstream)) ?? { id: Number(row.upstream), name: '' },
            count: Number(row.blocked),
          }))
          .sort((a, b) => b.count - a.count || a.stage.id - b.stage.id),
      };
    }),
  };
}

type EstimateRow = {
  level: number;
  stage_id: number | null;
  user_id: number | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  tasks: number;
  estimated_tasks: number;
  estimate_hours: number;
  spent_hours: number;
  unestimated_hours: number;
};

/** Hours to two decimals, as logs and estimates are kept (docs/time.md). */
const hours = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

/** Estimate vs spent per stage and per person who logged, and the biggest overruns (docs/reports.md). */
export async function estimatesReport(db: Db, ctx: ReportContext): Promise<TEstimatesReport> {
  const zero = { tasks: 0, estimated_tasks: 0, estimate_hours: 0, spent_hours: 0, unestimated_hours: 0, ratio: null };
  if (ctx.stages.length === 0) return { from: ctx.from, to: ctx.to, total: zero, stages: [], people: [], overruns: [] };
  const [rows, overruns] = await Promise.all([
    rowsOf<EstimateRow>(db, estimatesSql(ctx.scope)),
    rowsOf<{ id: number; stage_id: number; unit_id: number; unit_name: string; estimate: number; total: number }>(
      db,
      overrunsSql(ctx.scope, ReportOverrunsShown),
    ),
  ]);
  const numbers = (row: EstimateRow | undefined) => {
    if (!row) return zero;
    const estimate = hours(row.estimate_hours);
    const spent = hours(row.spent_hours);
    return {
      tasks: Number(row.tasks),
      estimated_tasks: Number(row.estimated_tasks),
      estimate_hours: estimate,
      spent_hours: spent,
      unestimated_hours: hours(row.unestimated_hours),
      ratio: estimate === 0 ? null : spent / estimate,
    };
  };
  // `level` is `grouping(stage_id, user_id)`: 1 per stage, 2 per person, 3 over all.
  const byStage = new Map(rows.filter((r) => Number(r.level) === 1).map((r) => [Number(r.stage_id), r]));
  const stageOf = new Map(ctx.stages.map((info) => [info.stage.id, info]));
  return {
    from: ctx.from,
    to: ctx.to,
    total: numbers(rows.find((r) => Number(r.level) === 3)),
    stages: ctx.stages.map((info) => ({ ...info, ...numbers(byStage.get(info.stage.id)) })),
    people: rows
      .filter((r) => Number(r.level) === 2 && r.username !== null)
      .map((r) => ({
        person: {
          id: Number(r.user_id),
          name: personName({ firstName: r.first_name ?? '', lastName: r.last_name ?? '', username: r.username! }),
        },
        ...numbers(r),
      }))
      .sort(
        (a, b) =>
          b.spent_hours + b.unestimated_hours - (a.spent_hours + a.unestimated_hours) ||
          a.person.name.localeCompare(b.person.name),
      ),
    overruns: overruns.map((row) => {
      const info = stageOf.get(Number(row.stage_id))!;
      return {
        task: { id: Number(row.id) },
        unit: { id: Number(row.unit_id), name: row.unit_name },
        stage: info.stage,
        pipeline: info.pipeline,
        estimate_hours: hours(row.estimate),
        spent_hours: hours(row.total),
        over_hours: hours(Number(row.total) - Number(row.estimate)),
      };
    }),
  };
}
