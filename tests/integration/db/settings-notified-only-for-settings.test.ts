// Every process drops everything it cached of the merchants' settings (API keys, acquirer accounts,
// routing, notification addresses) when PostgreSQL notifies a change on cps_settings (decision
// 0170). The acquirer account's row also holds the bookkeeping of background feeds: the card-update
// cursor, written by a cron job every minute for every enabled account, and the reporting API's last
// check. Those writes are not settings, and must not empty every process's cache each minute
// (decision 0225: the bench's latency phase stalled in the second the cron ran); a change of a
// setting is still notified, whichever column.
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { SETTINGS_CHANNEL } from "@/lib/db/settings-cache";
import { advanceCardUpdateCursor } from "@/lib/payments/advance-card-update-cursor";
import { recordReportingCheck } from "@/lib/routing/accounts/record-reporting-check";
import { useTestMerchant } from "@/tests/helpers/use-test-merchant";
import { defaultEngine, useTestDatabase } from "@/tests/helpers/test-database";

const database = useTestDatabase();
const merchant = useTestMerchant();

// The embedded database's socket server passes no notifications between connections.
const onPostgres = defaultEngine() === "postgres";

let listener: pg.Client;
let heard: string[];

beforeEach(async () => {
  if (!onPostgres) return;
  heard = [];
  listener = new pg.Client({ connectionString: database.current().url });
  await listener.connect();
  listener.on("notification", (message) => {
    if (message.channel === SETTINGS_CHANNEL) heard.push(message.payload ?? "");
  });
  await listener.query(`LISTEN ${SETTINGS_CHANNEL}`);
});
afterEach(async () => {
  await listener?.end();
});

/** What the listener heard after `write`, once a notification sent afterwards from elsewhere came in. */
async function heardAfter(write: () => Promise<unknown>): Promise<string[]> {
  heard.length = 0;
  await write();
  // A marker sent after the write: notifications arrive in commit order, so once it is heard,
  // anything the write notified has been too.
  await db().$executeRawUnsafe(`SELECT pg_notify('${SETTINGS_CHANNEL}', 'marker')`);
  const deadline = Date.now() + 5_000;
  while (!heard.includes("marker") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(heard).toContain("marker");
  return heard.filter((payload) => payload !== "marker");
}

async function account() {
  return db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.merchantId, enabled: true } });
}

describe.skipIf(!onPostgres)("the settings channel is for settings", () => {
  it("an advance of the card-update cursor and a reporting check notify nothing", async () => {
    const { id } = await account();
    expect(await heardAfter(() => advanceCardUpdateCursor({ accountId: id }))).toEqual([]);
    expect(await heardAfter(() => db().acquirerAccount.update({ where: { id }, data: { cardUpdatesSince: new Date() } }))).toEqual([]);
    expect(await heardAfter(() => recordReportingCheck({ accountId: id, problem: "the reporting API answered 503" }))).toEqual([]);
    expect(await heardAfter(() => recordReportingCheck({ accountId: id, problem: null }))).toEqual([]);
  });

  it("a change of the account's settings is notified, whichever column", async () => {
    const { id } = await account();
    expect(await heardAfter(() => db().acquirerAccount.update({ where: { id }, data: { name: "Renamed" } }))).toEqual(["AcquirerAccount"]);
    expect(await heardAfter(() => db().acquirerAccount.update({ where: { id }, data: { enabled: false } }))).toEqual(["AcquirerAccount"]);
    expect(await heardAfter(() => db().acquirerAccount.update({ where: { id }, data: { currencies: ["DKK", "EUR"] } }))).toEqual(["AcquirerAccount"]);
    // A setting and a cursor in one statement: notified.
    expect(
      await heardAfter(() => db().acquirerAccount.update({ where: { id }, data: { descriptor: "NEW SHOP", cardUpdatesSince: new Date() } })),
    ).toEqual(["AcquirerAccount"]);
    // An update that changes nothing a cache reads, by SQL: not notified.
    expect(await heardAfter(() => db().$executeRaw`UPDATE "AcquirerAccount" SET "descriptor" = "descriptor" WHERE "id" = ${id}`)).toEqual([]);
    expect(await heardAfter(() => db().acquirerAccount.delete({ where: { id } }))).toEqual(["AcquirerAccount"]);
  });
});
