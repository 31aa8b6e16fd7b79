// The hot paths' statements are named prepared statements (lib/db/hot-sql.ts, decision 0216):
// PostgreSQL parses and plans each once per connection instead of on every call. The tests hold
// the parts that keep that safe: a statement whose result a migration changed is prepared again
// and answers (a rolling deploy), the embedded database (one session shared by the pool) and the
// "off" setting get no names, and a process names a bounded number of texts (no batch).
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { hotSqlOn, preparedStatements } from "@/lib/db/hot-sql";
import { Prisma } from "@/lib/db";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();
const pools: pg.Pool[] = [];

/** One connection, so that what the statements prepared is seen by the next query. */
function onePool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: database.current().url, max: 1 });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

async function preparedNames(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'cps\\_%' ORDER BY name`);
  return rows.map((row) => row.name);
}

const onPostgres = defaultEngine() === "postgres";

describe("hot statements prepared once per connection", () => {
  it.skipIf(!onPostgres)("runs a hot statement as one named statement on PostgreSQL, whatever its values", async () => {
    const pool = onePool();
    await preparedStatements(pool, "on").ready;
    const hot = hotSqlOn(pool);
    // The first call learns whether the database takes names; from then on they are named.
    await hot.$queryRaw(Prisma.sql`SELECT ${1}::int AS "n"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const n of [2, 3, 4]) expect(await hot.$queryRaw(Prisma.sql`SELECT ${n}::int AS "n"`)).toEqual([{ n }]);
    expect(await preparedNames(pool)).toHaveLength(1);
  });

  it.skipIf(!onPostgres)("leaves a batch of more than 40 values unnamed (its text grows with its size)", async () => {
    const pool = onePool();
    await preparedStatements(pool, "on").ready;
    const hot = hotSqlOn(pool);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const many = Array.from({ length: 41 }, (_, index) => index);
    const [row] = await hot.$queryRaw<{ n: number }[]>(Prisma.sql`SELECT ${Prisma.join(many.map((n) => Prisma.sql`${n}::int`), " + ")} AS "n"`);
    expect(row!.n).toBe((40 * 41) / 2);
    expect(await preparedNames(pool)).toEqual([]);
  });

  it.skipIf(!onPostgres)("prepares a statement again when a migration changed what it returns, and answers with the new shape", async () => {
    const pool = onePool();
    const hot = hotSqlOn(pool);
    await pool.query(`CREATE TABLE prepared_probe (a int)`);
    await pool.query(`INSERT INTO prepared_probe VALUES (1)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = () => hot.$queryRaw<Record<string, unknown>[]>(Prisma.sql`SELECT * FROM prepared_probe WHERE a = ${1}`);
    expect(await read()).toEqual([{ a: 1 }]);
    expect(await preparedNames(pool)).toHaveLength(1);
    // What a deploy's migration does while this process runs: PostgreSQL refuses the prepared
    // statement ("cached plan must not change result type") until it is prepared again.
    await pool.query(`ALTER TABLE prepared_probe ADD COLUMN b text DEFAULT 'x'`);
    expect(await read()).toEqual([{ a: 1, b: "x" }]);
    expect(await read()).toEqual([{ a: 1, b: "x" }]);
  });

  it("names nothing with the setting off, and nothing on the embedded database", async () => {
    const pool = onePool();
    const off = preparedStatements(pool, "off");
    await off.ready;
    expect(off.enabled()).toBe(false);
    const auto = preparedStatements(pool, "on");
    await auto.ready;
    expect(auto.enabled()).toBe(onPostgres);
    const hot = hotSqlOn(pool, { preparedStatements: onPostgres ? "off" : "on" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await hot.$queryRaw(Prisma.sql`SELECT ${1}::int AS "n"`);
    await hot.$queryRaw(Prisma.sql`SELECT ${1}::int AS "n"`);
    expect(await preparedNames(pool)).toEqual([]);
  });

  it("names at most 64 texts a process; the rest go unnamed", async () => {
    const prepared = preparedStatements(onePool(), "on");
    await prepared.ready;
    const names = Array.from({ length: 80 }, (_, index) => prepared.name(`SELECT ${index}`));
    expect(new Set(names.filter(Boolean)).size).toBe(64);
    expect(names.slice(64).every((name) => name === undefined)).toBe(true);
    // The same text keeps its name.
    expect(prepared.name("SELECT 3")).toBe(names[3]);
  });
});
