// Runs Inngest functions for real in an integration test: serve() from "inngest/next" on node:http
// at 127.0.0.1, and the embedded executor on the test database (call useTestDatabase() first)
// with a TestClock. Events go in through sendEvent()/inngest.send as in production.
import type { InngestFunction } from "inngest";
import { serve } from "inngest/next";
import { afterEach } from "vitest";
import { db } from "@/lib/db";
import type { InngestRunStatus } from "@/lib/generated/prisma/enums";
import { inngest } from "@/lib/inngest/client";
import { TestClock } from "@cps/inngest-embedded";
import { EmbeddedExecutor, type EmbeddedExecutorOptions } from "@cps/inngest-embedded";
import { embeddedSigningKey } from "@/lib/inngest/signing-key";
import { eventually } from "./eventually";
import { serveOnHttp } from "./serve-on-http";

export interface HarnessRun {
  id: string;
  functionId: string;
  eventId: string;
  status: InngestRunStatus;
  attempts: number;
  output: unknown;
  error: unknown;
  lastError: string | null;
  nextWakeAt: Date | null;
  /** Memoized steps in completion order: their names and what the SDK gets back. */
  steps: { name: string | null; hashedId: string; memo: unknown }[];
}

export interface WaitForRunOptions {
  runId?: string;
  /** The function's id as given to createFunction (the app id prefix is added). */
  functionId?: string;
  /** The id Inngest returned for the triggering event. */
  eventId?: string;
  status?: InngestRunStatus | InngestRunStatus[];
  timeoutMs?: number;
}

export type InngestHarness = Awaited<ReturnType<typeof startInngestHarness>>;

type ExecutorOverrides = Partial<Omit<EmbeddedExecutorOptions, "database" | "serveUrl" | "signingKey" | "clock">>;

export interface InngestHarnessOptions {
  functions: InngestFunction.Any[];
  clock?: TestClock;
  executor?: ExecutorOverrides;
}

export async function startInngestHarness(options: InngestHarnessOptions) {
  const route = await serveOnHttp({ handlers: serve({ client: inngest, functions: options.functions }) });
  const clock = options.clock ?? new TestClock();
  const executors: EmbeddedExecutor[] = [];

  /** Starts an executor on the same database and endpoint (call it again for a second process). */
  function startExecutor(overrides: ExecutorOverrides = {}): EmbeddedExecutor {
    const executor = new EmbeddedExecutor({
      database: db(),
      serveUrl: route.url,
      signingKey: embeddedSigningKey(),
      clock,
      pollIntervalMs: 25,
      retryJitterMs: 0,
      logger: { info: () => {}, warn: (message) => console.warn(message), error: (message) => console.error(message) },
      ...options.executor,
      ...overrides,
    });
    executor.start();
    executors.push(executor);
    return executor;
  }

  const wakeAll = () => executors.forEach((executor) => executor.wake());

  async function findRun(where: WaitForRunOptions): Promise<HarnessRun | null> {
    const functionId =
      where.functionId && !where.functionId.startsWith(`${inngest.id}-`) ? `${inngest.id}-${where.functionId}` : where.functionId;
    const run = await db().inngestRun.findFirst({
      where: { id: where.runId, functionId, eventId: where.eventId },
      orderBy: { startedAt: "desc" },
      include: { steps: { orderBy: { position: "asc" } } },
    });
    if (!run) return null;
    return {
      id: run.id,
      functionId: run.functionId,
      eventId: run.eventId,
      status: run.status,
      attempts: run.attempts,
      output: run.output,
      error: run.error,
      lastError: run.lastError,
      nextWakeAt: run.nextWakeAt,
      steps: run.steps.map((step) => ({ name: step.name, hashedId: step.hashedId, memo: (step.result as { memo: unknown }).memo })),
    };
  }

  /** Waits (real time) until the run exists and has one of the statuses; fails with its state if not. */
  async function waitForRun(where: WaitForRunOptions): Promise<HarnessRun> {
    const statuses = where.status === undefined ? undefined : Array.isArray(where.status) ? where.status : [where.status];
    let last: HarnessRun | null = null;
    return eventually(
      async () => {
        last = await findRun(where);
        if (last && (!statuses || statuses.includes(last.status))) return last;
        wakeAll();
        return undefined;
      },
      { what: () => `a run matching ${JSON.stringify(where)}; last seen: ${JSON.stringify(last)}`, timeoutMs: where.timeoutMs ?? 40_000, intervalMs: 25 },
    );
  }

  /** Whether nothing is due now: no event waiting for fan-out, no due job, no call in flight. */
  async function isIdle(): Promise<boolean> {
    if (executors.some((executor) => executor.busy)) return false;
    const now = clock.now();
    const [events, due] = await Promise.all([
      db().inngestEvent.count({ where: { fannedOutAt: null } }),
      // Due and claimable: a job leased by an executor that was abandoned waits for its lease.
      db().inngestJob.count({
        where: {
          runAt: { lte: now },
          OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }],
          run: { status: { notIn: ["completed", "failed"] } },
        },
      }),
    ]);
    return events === 0 && due === 0 && !executors.some((executor) => executor.busy);
  }

  /** Waits (real time) until nothing is due at the current test time. */
  async function waitUntilIdle(timeoutMs = 40_000): Promise<void> {
    let idleTwice = 0;
    await eventually(
      async () => {
        idleTwice = (await isIdle()) ? idleTwice + 1 : 0;
        if (idleTwice >= 2) return true;
        wakeAll();
        return false;
      },
      { what: "the executor to become idle", timeoutMs, intervalMs: 25 },
    );
  }

  return {
    clock,
    /** The serve endpoint's URL. */
    url: route.url,
    /** The first executor (started with the harness). */
    executor: startExecutor(),
    startExecutor,
    findRun,
    waitForRun,
    waitUntilIdle,
    /** Moves the test clock forward ("3s", "24h" or ms) and wakes the executors. */
    advance(by: number | string): Date {
      const now = clock.advance(by);
      wakeAll();
      return now;
    },
    /**
     * Runs everything to the end: whenever nothing is due, jumps the clock to the next wake-up
     * (sleep or retry backoff), until no job is left. Returns how far the clock moved, in ms.
     */
    async runUntilIdle(options: { maxJumps?: number; timeoutMs?: number } = {}): Promise<number> {
      const start = clock.now().getTime();
      for (let jump = 0; jump <= (options.maxJumps ?? 100); jump++) {
        await waitUntilIdle(options.timeoutMs);
        const pending = await db().inngestJob.findMany({
          where: { run: { status: { notIn: ["completed", "failed"] } } },
          select: { runAt: true, leaseExpiresAt: true },
        });
        if (pending.length === 0) return clock.now().getTime() - start;
        // The next moment something becomes claimable: a wake-up, or a dead executor's lease ending.
        const next = Math.min(...pending.map((job) => Math.max(job.runAt.getTime(), job.leaseExpiresAt?.getTime() ?? 0)));
        clock.advanceTo(new Date(next));
        wakeAll();
      }
      throw new Error("runUntilIdle: still work left after the maximum number of clock jumps");
    },
    async stop(): Promise<void> {
      await Promise.all(executors.map((executor) => executor.stop()));
      await route.close();
    },
  };
}

/**
 * For a test file (after useTestDatabase()): starts harnesses that are stopped after each test,
 * passed or failed, so that no executor of one test goes on claiming jobs in the next one.
 */
export function useInngestHarnesses() {
  const running: InngestHarness[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((harness) => harness.stop()));
  });
  return {
    start: async (options: InngestHarnessOptions): Promise<InngestHarness> => {
      const harness = await startInngestHarness(options);
      running.push(harness);
      return harness;
    },
    /** Stops a harness before its test ends (the test runs another one after it). */
    stop: async (harness: InngestHarness): Promise<void> => {
      const at = running.indexOf(harness);
      if (at >= 0) running.splice(at, 1);
      await harness.stop();
    },
  };
}
