// Calendar dates of disputes and settlements (the acquirer's days, YYYY-MM-DD) as PostgreSQL DATE
// columns: Prisma reads and writes a DATE as midnight UTC, so the day survives both ways unchanged.
// Never turned into an instant of the acquirer's time zone.

export function dateColumn(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export function calendarDay(column: Date): string {
  return column.toISOString().slice(0, 10);
}

/** Today as a calendar day in UTC. */
export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  return calendarDay(new Date(dateColumn(day).getTime() + days * 86_400_000));
}
