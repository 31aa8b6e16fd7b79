// The hot paths' SQL on the driver (lib/db/hot-sql.ts, decision 0214) must be a drop-in for
// `db().$queryRaw`: the same statement with the same values gives the same JavaScript values, so a
// statement can move between the two without its caller noticing. Each case runs through both and
// compares; the values cover every column type the hot statements send or read.
import { describe, expect, it } from "vitest";
import { db, hotSql, Prisma } from "@/lib/db";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const when = new Date(Date.UTC(2026, 10, 29, 23, 41, 7, 123));
const whole = new Date(Date.UTC(2026, 10, 29, 23, 41, 7, 0));

const cases: [string, Prisma.Sql][] = [
  ["int8 and bigint parameters", Prisma.sql`SELECT ${12_345_678_901_234n}::bigint AS "a", COUNT(*) AS "n", SUM(x)::bigint AS "s" FROM (VALUES (1), (2)) v(x)`],
  ["int4, bool, text, null", Prisma.sql`SELECT 7::int AS "i", ${true} AS "b", ${"tekst æøå"}::text AS "t", NULL::text AS "z", ${null}::bigint AS "nb"`],
  ["a Date into timestamp(3) and back", Prisma.sql`SELECT ${when}::timestamp(3) AS "ts", ${whole}::timestamp(3) AS "whole", (${when}::timestamp(3) AT TIME ZONE 'UTC') AS "tz"`],
  ["timestamp comparisons", Prisma.sql`SELECT ${when}::timestamp(3) > ${whole}::timestamp(3) AS "later", now() > ${when} AS "past"`],
  ["json and jsonb", Prisma.sql`SELECT json_build_object('a', 1, 'b', 'x') AS "j", ${JSON.stringify({ n: [1, 2], s: "y" })}::jsonb AS "jb", '[]'::jsonb AS "empty"`],
  ["numeric and date", Prisma.sql`SELECT 12.50::numeric AS "n", DATE '2026-11-29' AS "d"`],
  ["arrays", Prisma.sql`SELECT ARRAY['a', 'b']::text[] AS "texts", ARRAY[1, 2]::bigint[] AS "bigs", ARRAY[${when}::timestamp(3)] AS "times", ${["x", "y"]}::text[] AS "sent"`],
  ["an enum", Prisma.sql`SELECT 'capture'::"OperationType" AS "type", 'test'::"Mode"::text AS "mode"`],
  ["bytea", Prisma.sql`SELECT ${Buffer.from([0, 1, 254, 255])}::bytea AS "bytes"`],
];

describe("hot SQL answers as db().$queryRaw does", () => {
  it.each(cases)("%s", async (_name, query) => {
    const [viaPrisma, viaDriver] = await Promise.all([db().$queryRaw<Record<string, unknown>[]>(query), hotSql().$queryRaw<Record<string, unknown>[]>(query)]);
    const normal = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Uint8Array ? [...value] : value])));
    expect(normal(viaDriver)).toEqual(normal(viaPrisma));
    // Not merely equal by accident: the types themselves.
    for (const [key, value] of Object.entries(viaPrisma[0]!)) {
      const other = viaDriver[0]![key];
      expect(Object.prototype.toString.call(other), key).toBe(Object.prototype.toString.call(value));
    }
  });

  it("writes a Date and a bigint as Prisma does, read back by either", async () => {
    await hotSql().$executeRaw(Prisma.sql`CREATE TABLE IF NOT EXISTS hot_sql_probe_table (id text PRIMARY KEY, at timestamp(3), amount bigint)`);
    await db().$executeRaw`INSERT INTO hot_sql_probe_table VALUES ('prisma', ${when}, ${9_007_199_254_740_993n})`;
    await hotSql().$executeRaw(Prisma.sql`INSERT INTO hot_sql_probe_table VALUES ('driver', ${when}, ${9_007_199_254_740_993n})`);
    const rows = await db().$queryRaw<{ id: string; at: Date; amount: bigint }[]>`SELECT * FROM hot_sql_probe_table ORDER BY id`;
    expect(rows).toEqual([
      { id: "driver", at: when, amount: 9_007_199_254_740_993n },
      { id: "prisma", at: when, amount: 9_007_199_254_740_993n },
    ]);
    await hotSql().$executeRaw(Prisma.sql`DROP TABLE hot_sql_probe_table`);
  });

  it("runs a transaction on one connection, and rolls it back on a failure", async () => {
    await hotSql().$executeRaw(Prisma.sql`CREATE TABLE IF NOT EXISTS hot_sql_tx (id text PRIMARY KEY)`);
    await expect(
      hotSql().$transaction(async (tx) => {
        await tx.$executeRaw(Prisma.sql`INSERT INTO hot_sql_tx VALUES ('a')`);
        await tx.$executeRaw(Prisma.sql`INSERT INTO hot_sql_tx VALUES ('a')`);
      }),
    ).rejects.toThrow(/duplicate key/);
    await hotSql().$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO hot_sql_tx VALUES (${"b"})`;
    });
    expect(await db().$queryRaw`SELECT id FROM hot_sql_tx ORDER BY id`).toEqual([{ id: "b" }]);
    await hotSql().$executeRaw(Prisma.sql`DROP TABLE hot_sql_tx`);
  });
});
