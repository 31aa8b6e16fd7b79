// Run as a separate process (npx tsx tests/helpers/store-event-process.ts '<event JSON>') with
// DATABASE_URL set: stores one event through the executor's intake, as a web process does, and
// exits. No executor runs in this process, so only a PostgreSQL notification can tell the
// executors of other processes about the event.
import { acceptEvents, incomingEventSchema } from "@cps/inngest-embedded";
import { db, disconnectDb } from "../../lib/db";

async function main(): Promise<void> {
  const event = incomingEventSchema.parse(JSON.parse(process.argv[2] ?? "{}"));
  const [id] = await acceptEvents({ database: db(), events: [event] });
  console.log(JSON.stringify({ id }));
  await disconnectDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
