/**
 * Working days (docs/schedule.md, "Calendar"): a workspace's working weekdays and holidays, and each
 * person's days off. Days are whole UTC days counted from 1970-01-01 (`dayOf`), so arithmetic on
 * them is integer arithmetic and never depends on the machine's time zone.
 */

const DayMs = 86_400_000;

/** The day number of an ISO date or date-time (its first ten characters, read as a UTC date). */
export function dayOf(iso: string | Date): number {
  if (iso instanceof Date) return Math.floor(iso.getTime() / DayMs);
  return Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DayMs);
}

/** The ISO date (YYYY-MM-DD) of a day number. */
export function isoDay(day: number): string {
  return new Date(day * DayMs).toISOString().slice(0, 10);
}

/** The ISO weekday of a day number: 1 Monday … 7 Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

export const WeekdayNumbers = [1, 2, 3, 4, 5, 6, 7] as const;
/** Monday to Friday: a new workspace's working days. */
export const DefaultWorkingDays = [1, 2, 3, 4, 5] as const;

export type TCalendarSpec = {
  /** ISO weekdays that are working days (1 Monday … 7 Sunday). Empty reads as every day. */
  workingDays: readonly number[];
  /** Days off for everyone (ISO dates). */
  holidays?: readonly string[];
  /** Each person's own days off (ISO dates), by user id. */
  daysOff?: ReadonlyMap<number, readonly string[]>;
};

/** How many days around the calendar's centre are precomputed (about 30 years); outside it, computed each time. */
const Span = 11_000;

/**
 * A calendar to count working days with. The workspace's days are precomputed in a bitmap, so a
 * forecast of 200,000 tasks asks `isWorking` millions of times for the price of an array read.
 */
export class WorkCalendar {
  private readonly weekdays: boolean[];
  private readonly holidays: Set<number>;
  private readonly daysOff = new Map<number, Set<number>>();
  private readonly base: number;
  private readonly bits: Uint8Array;

  constructor(spec: TCalendarSpec, centre: number = dayOf(new Date())) {
    const days = spec.workingDays.filter((d) => d >= 1 && d <= 7);
    this.weekdays = WeekdayNumbers.map((d) => days.length === 0 || days.includes(d));
    this.holidays = new Set((spec.holidays ?? []).map(dayOf));
    for (const [person, dates] of spec.daysOff ?? [])
      if (dates.length > 0) this.daysOff.set(person, new Set(dates.map(dayOf)));
    this.base = centre - Span / 2;
    this.bits = new Uint8Array(Span);
    for (let i = 0; i < Span; i++) this.bits[i] = this.workspaceDay(this.base + i) ? 1 : 0;
  }

  private workspaceDay(day: number): boolean {
    return this.weekdays[isoWeekday(day) - 1]! && !this.holidays.has(day);
  }

  /** Is `day` a working day for the workspace, and for `person` when given? */
  isWorking(day: number, person?: number | null): boolean {
    const i = day - this.base;
    const open = i >= 0 && i < Span ? this.bits[i] === 1 : this.workspaceDay(day);
    if (!open) return false;
    if (person == null) return true;
    return !this.daysOff.get(person)?.has(day);
  }

  /**
   * The first working day on or after `day`. Terminates: some weekday works, and holidays and days
   * off are finite lists.
   */
  onOrAfter(day: number, person?: number | null): number {
    let d = day;
    while (!this.isWorking(d, person)) d++;
    return d;
  }

  /** The last day of `count` working days (at least one) that start on or after `start`. */
  finishOf(start: number, count: number, person?: number | null): number {
    let d = this.onOrAfter(start, person);
    for (let left = Math.max(1, Math.ceil(count)) - 1; left > 0; left--) d = this.onOrAfter(d + 1, person);
    return d;
  }

  /** Working days from `from` to `to`, both included (0 when `to` is before `from`). */
  between(from: number, to: number, person?: number | null): number {
    let n = 0;
    for (let d = from; d <= to; d++) if (this.isWorking(d, person)) n++;
    return n;
  }
}
