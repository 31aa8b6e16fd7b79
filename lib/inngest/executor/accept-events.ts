// The embedded executor's event intake: stores events for fan-out, dropping repeats of an event id.
import { ulid } from "ulid";
import { z } from "zod";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { wakeLocalExecutors } from "./local-executors";

/** An event as the SDK POSTs it to /e/:key. */
export const incomingEventSchema = z.object({
  name: z.string().min(1),
  data: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
  ts: z.number().int().optional(),
  v: z.string().optional(),
});
export type IncomingEvent = z.infer<typeof incomingEventSchema>;

/** The event exactly as a function receives it. */
export interface StoredEventPayload {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
  v?: string;
}

/**
 * Stores each event and returns its id, in the order given. An event whose `id` was seen before
 * is not stored again: its earlier id is returned and it starts no new run.
 */
export async function acceptEvents(options: { database: PrismaClient; events: IncomingEvent[]; now?: Date }): Promise<string[]> {
  const ids: string[] = [];
  for (const event of options.events) {
    ids.push(await acceptEvent(options.database, event, options.now ?? new Date()));
  }
  if (ids.length > 0) wakeLocalExecutors();
  return ids;
}

async function acceptEvent(database: PrismaClient, event: IncomingEvent, now: Date): Promise<string> {
  const id = ulid(now.getTime());
  const payload: StoredEventPayload = {
    id: event.id ?? id,
    name: event.name,
    data: event.data ?? {},
    ts: event.ts ?? now.getTime(),
    ...(event.v ? { v: event.v } : {}),
  };
  if (!event.id) {
    await database.inngestEvent.create({ data: { id, name: event.name, payload: payload as unknown as Prisma.InputJsonValue } });
    return id;
  }
  const inserted = await database.$queryRaw<{ id: string }[]>`
    INSERT INTO "InngestEvent" ("id", "name", "idempotencyKey", "payload")
    VALUES (${id}, ${event.name}, ${event.id}, ${JSON.stringify(payload)}::jsonb)
    ON CONFLICT ("idempotencyKey") DO NOTHING
    RETURNING "id"`;
  if (inserted[0]) return inserted[0].id;
  const existing = await database.inngestEvent.findUniqueOrThrow({ where: { idempotencyKey: event.id }, select: { id: true } });
  return existing.id;
}
