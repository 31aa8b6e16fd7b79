// The query languages of the Merchant API's collections, as far as their pages are readable: DQL
// for disputes [S6], SQL for settlements [S9], TQL for transactions [S12] (source ids of
// /work/notes/merchant-api-references.md §1). "A bad request will be returned for unknown modifiers
// or invalid input" [S9, S12]: every modifier the sandbox does not know is refused (400), so a
// client that sends one learns it here rather than at Clearhaus.

/** A modifier's test of one item, or the reason its value is invalid. */
export type Predicate<T> = (item: T) => boolean;
export type ModifierTable<T> = Record<string, (value: string, now: Date) => Predicate<T> | string>;

export class QueryError extends Error {}

/** "Multiple modifiers in one query are supported" [S6]: whitespace-separated, each narrowing the result. */
export function parseQuery<T>(query: string | null, table: ModifierTable<T>, now = new Date()): Predicate<T> {
  const predicates: Predicate<T>[] = [];
  for (const term of (query ?? "").trim().split(/\s+/).filter(Boolean)) {
    const colon = term.indexOf(":");
    if (colon <= 0) throw new QueryError(`invalid query term '${term}'`);
    const modifier = term.slice(0, colon);
    const value = term.slice(colon + 1);
    const make = Object.hasOwn(table, modifier) ? table[modifier] : undefined;
    if (!make) throw new QueryError(`unknown modifier '${modifier}'`);
    if (!value) throw new QueryError(`modifier '${modifier}' needs a value`);
    const predicate = make(value, now);
    if (typeof predicate === "string") throw new QueryError(`invalid value for '${modifier}': ${predicate}`);
    predicates.push(predicate);
  }
  return (item) => predicates.every((predicate) => predicate(item));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** [from, to] inclusive of a named period ("this_*" = from the beginning of the period until now [S12]); weeks start on Monday (ISO 8601). */
function namedPeriod(name: string, now: Date): [string, string] | undefined {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monday = addDays(today, -((today.getUTCDay() + 6) % 7));
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  switch (name) {
    case "today":
      return [day(today), day(today)];
    case "yesterday":
      return [day(addDays(today, -1)), day(addDays(today, -1))];
    case "this_week":
      return [day(monday), day(today)];
    case "last_week":
      return [day(addDays(monday, -7)), day(addDays(monday, -1))];
    case "this_month":
      return [day(new Date(Date.UTC(year, month, 1))), day(today)];
    case "last_month":
      return [day(new Date(Date.UTC(year, month - 1, 1))), day(new Date(Date.UTC(year, month, 0)))];
    case "this_year":
      return [`${year}-01-01`, day(today)];
    case "last_year":
      return [`${year - 1}-01-01`, `${year - 1}-12-31`];
    default:
      return undefined;
  }
}

/**
 * A date condition as the three languages write it [S6, S9, S12]: a named period, `>=D`, `>D`,
 * `<=D`, `<D`, `D..*`, `*..D`, `D..D`, or one day `D`. Compared as YYYY-MM-DD text.
 */
export function dateCondition(value: string, now: Date): ((date: string | undefined) => boolean) | string {
  const named = namedPeriod(value, now);
  if (named) return (date) => date !== undefined && date >= named[0] && date <= named[1];
  const comparison = /^(>=|>|<=|<)(\d{4}-\d{2}-\d{2})$/.exec(value);
  if (comparison) {
    const [, operator, bound] = comparison as unknown as [string, string, string];
    return (date) =>
      date !== undefined &&
      (operator === ">=" ? date >= bound : operator === ">" ? date > bound : operator === "<=" ? date <= bound : date < bound);
  }
  const range = /^(\*|\d{4}-\d{2}-\d{2})\.\.(\*|\d{4}-\d{2}-\d{2})$/.exec(value);
  if (range) {
    const [, from, to] = range as unknown as [string, string, string];
    if (from === "*" && to === "*") return "a range needs a date";
    return (date) => date !== undefined && (from === "*" || date >= from) && (to === "*" || date <= to);
  }
  if (DATE.test(value)) return (date) => date === value;
  return "not a date, period or range";
}

/** A comma-separated list of allowed values ("reason:duplicate,product_unacceptable" [S6]). */
export function oneOf(value: string, allowed: readonly string[] | RegExp): string[] | string {
  const values = value.split(",");
  const bad = values.find((entry) => (Array.isArray(allowed) ? !allowed.includes(entry) : !(allowed as RegExp).test(entry)));
  return bad === undefined ? values : `'${bad}'`;
}
