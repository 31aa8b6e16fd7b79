// The embedded executor: plays the Inngest server's part for the app's own functions. It looks in
// the database for new events and due jobs, calls the serve endpoint over HTTP exactly as a server
// would (signed canonical JSON with the memoized steps), or the SDK's comm handler in the same
// process directly (`invoke`), and turns the SDK's answers into the next jobs. All state is in the database, so any number of executors (one per service process) can
// share the work and a restart loses nothing.
// It does not poll for work: it looks when told that work arrived (an event stored in this process,
// a PostgreSQL notification from any process: work-notifications.ts, a call of its own finishing)
// and at a timer set to the earliest due sleep, retry, lease expiry or cron time. A slow safety
// poll (`pollIntervalMs`) covers lost notifications; an idle executor does nothing in between.
import { randomBytes } from "node:crypto";
import { callFunction, type CallOutcome, type DirectInvoke, type ServeHandler } from "./call-function";
import { systemClock, type Clock } from "./clock";
import { registerLocalExecutor } from "./local-executors";
import type { CallRequestBody } from "./protocol";
import type { ExecutorDatabase } from "./database";
import { interpretOutcome } from "./interpret";
import { claimDueJobsAndNextDue, nextDueAt, releaseLease, releaseLeasesOf, renewLease, type ClaimedJob } from "./claims";
import { pruneHistory } from "./retention";
import { endRunsTogether, finishJob, loadRunForCall, type JobResult, type LeasedWork, type PendingRunEnd, type RunForCall } from "./run-progress";
import { FAN_OUT_BATCH, fanOutEvents, startScheduledRun } from "./start-runs";
import { cronFireTimes, syncFunctions, UnsupportedFunctionsError, type CronSchedule, type FunctionDefinition } from "./sync-functions";

export interface ExecutorLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EmbeddedExecutorOptions {
  database: ExecutorDatabase;
  /** The app's serve endpoint, e.g. http://127.0.0.1:3000/api/inngest */
  serveUrl: string;
  signingKey: string;
  /**
   * The serve endpoint's handler when it lives in this process (start-embedded-executor.ts): calls
   * go to it directly instead of over loopback HTTP. The function list is still learned over HTTP.
   */
  handler?: ServeHandler;
  /**
   * The SDK's comm handler in this process, called directly (DirectInvoke in call-function.ts):
   * no signature, no JSON text, no Request. Takes precedence over `handler`; the function list is
   * still learned over HTTP.
   */
  invoke?: DirectInvoke;
  clock?: Clock;
  /**
   * The safety poll: the longest an idle executor goes without looking for work. Work is found
   * sooner through wake-ups (`listen`, `wake()`) and the timer of the earliest due job.
   */
  pollIntervalMs?: number;
  /**
   * Subscribes to work stored by other processes (listenForWork in work-notifications.ts); called
   * on start with the executor's wake-up, closed on stop.
   */
  listen?: (wake: () => void) => { close(): Promise<void> };
  /** How long a claimed job stays ours; an executor that dies loses its jobs after this. */
  leaseMs?: number;
  /** The longest a call may take; kept below the lease so a live executor never loses a job mid-call. */
  callTimeoutMs?: number;
  /** Jobs in flight at once in this executor. */
  concurrency?: number;
  /** Random extra delay (0 to this) added to retry backoff. */
  retryJitterMs?: number;
  /**
   * How long the end of a run its first call completed may wait to be written with others
   * (decision 0218; default 40 ms). Its job stays leased to this executor meanwhile.
   */
  runEndBatchMs?: number;
  /** Called after every poll, with the error when the poll failed (health reporting). */
  onPoll?: (error?: string) => void;
  logger?: ExecutorLogger;
  /** Names this executor in job leases; random unless given. */
  workerId?: string;
  /**
   * On start, take back the leases held under `workerId`: with a stable id (one per host and
   * port, as the service uses) they can only be left over from this process's predecessor, which
   * died mid-call, so its runs continue at once instead of after the lease time.
   */
  reclaimOwnLeasesOnStart?: boolean;
  /** Finished runs and their events are deleted this long after they ended; undefined keeps them. */
  retentionMs?: number;
}

const STARTUP_GRACE_MS = 15_000;
const RESYNC_INTERVAL_MS = 60_000;
const PRUNE_INTERVAL_MS = 10 * 60_000;
/** A pass woken only by new events may leave out the claim of due jobs, for at most this long (pollOnce). */
const CLAIM_AT_LEAST_EVERY_MS = 250;
/** The ends of runs written together (decision 0218): how long one waits by default, and how many at most. */
const RUN_END_BATCH_MS = 40;
const RUN_END_BATCH_MAX = 100;

const quietLogger: ExecutorLogger = { info: () => {}, warn: () => {}, error: () => {} };

export class EmbeddedExecutor {
  readonly workerId: string;
  private readonly database: ExecutorDatabase;
  private readonly clock: Clock;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly callTimeoutMs: number;
  private readonly concurrency: number;
  private readonly retryJitterMs: number;
  private readonly runEndBatchMs: number;
  private readonly logger: ExecutorLogger;
  private functions: Map<string, FunctionDefinition> | undefined;
  /** The same functions as a list, replaced only when a sync changes them (the fan-out caches its text per list). */
  private functionList: FunctionDefinition[] = [];
  private syncedAt = 0;
  private prunedAt = 0;
  /** Cron fire times up to this (clock) time are done; the first poll starts it, so none are back-filled. */
  private cronCheckedAt: Date | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  /** Calls this executor made to the serve endpoint (for tests and diagnostics). */
  callsMade = 0;
  private running = false;
  /** Set by `abandon()`: results of calls still in flight are dropped, as if the process died. */
  private abandoned = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wakeRequested = false;
  private unregister: (() => void) | undefined;
  private listener: { close(): Promise<void> } | undefined;
  /**
   * Each cron schedule's first fire time after `cronCheckedAt` (by function id and expression),
   * kept until it passes: cron-parser is not free, and a pass between two fire times needs none.
   */
  private readonly nextCronFires = new Map<string, number | undefined>();
  /** The earliest due time the last claim saw (it folds the idle timer's query), until the next pass. */
  private lastClaimNextDue: { at: Date | null } | undefined;
  /**
   * Whether the next pass must claim due jobs. Not when only new events woke it (a work
   * notification, an event accepted in this process): see pollOnce. Every other wake-up (a call
   * that ended with work left, the idle timer, a full batch, the start) wants a claim.
   */
  private claimWanted = true;
  /**
   * Whether the next pass must look for new events (the fan-out). Set by what says events may be
   * waiting (a work notification, an event accepted in this process, any `wake()` from outside, a
   * fan-out that took a full batch) and by the safety interval; not by a call's end or a due job's
   * timer, whose passes only claim (decision 0234: every pass made a fan-out statement, found nothing
   * in most of them: 3.3 per refused notification's capture at 100 a second).
   */
  private fanOutWanted = true;
  /** When the last fan-out was sent (Date.now()): one at least every pollIntervalMs finds events whose notification was lost. */
  private lastFanOutAtMs = 0;
  /** When the last claim ran (clock ms) and the earliest due time it saw (null: nothing pending). */
  private lastClaim: { atMs: number; nextDue: Date | null } | undefined;
  /** Set when a pass left out its claim: the idle loop makes it up by then (clock ms) at the latest. */
  private claimOwedBy: number | undefined;
  /** Whether the last pass took a full batch (events or jobs): then more may be waiting at once. */
  private passWasFull = false;
  /** The (clock) time of the last pass's claim: jobs due by then that it left were not claimable. */
  private lastPassAt: number | undefined;
  /**
   * Whether the last pass may have left claimable work behind (it filled every free slot, or it
   * failed): then a call that ends and frees a slot makes a pass. Otherwise a call's end makes one
   * only when its result left work (finishJob's `createdWork`), which saves an idle-looking pass
   * (five statements) per finished run.
   */
  private passLeftWork = true;
  /** Set by pollOnce: it ran out of free slots, so due work may be left for a slot that frees up. */
  private passRanOutOfSlots = false;
  /** While a pass runs, a call that ends without work left is only noted (slotFreedInPass). */
  private passing = false;
  private slotFreedInPass = false;
  /** Times the loop looked for work (for tests and diagnostics: an idle executor does not). */
  polls = 0;
  /** Ends of runs completed by their first call, written together (decision 0218). */
  private pendingEnds: PendingRunEnd[] = [];
  private endsTimer: NodeJS.Timeout | undefined;
  private endsWriting: Promise<void> | undefined;
  /** Statements that wrote run ends together, and the ends they wrote (for tests and diagnostics). */
  readonly runEndBatches = { statements: 0, ends: 0 };

  constructor(private readonly options: EmbeddedExecutorOptions) {
    this.database = options.database;
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.callTimeoutMs = Math.min(options.callTimeoutMs ?? 4 * 60_000, this.leaseMs - 1_000);
    this.concurrency = options.concurrency ?? 4;
    this.retryJitterMs = options.retryJitterMs ?? 30_000;
    this.runEndBatchMs = options.runEndBatchMs ?? RUN_END_BATCH_MS;
    this.logger = options.logger ?? quietLogger;
    this.workerId = options.workerId ?? `executor-${process.pid}-${randomBytes(4).toString("hex")}`;
  }

  /** Starts polling in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.abandoned = false;
    this.unregister = registerLocalExecutor(() => this.wake({ newEvents: true }));
    this.listener = this.options.listen?.(() => this.wake({ newEvents: true }));
    this.loop = this.runLoop();
  }

  private stopListening(): Promise<void> {
    this.unregister?.();
    const listener = this.listener;
    this.listener = undefined;
    return listener?.close() ?? Promise.resolve();
  }

  /** Stops polling and waits for the calls in flight to finish and be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    const closing = this.stopListening();
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight, closing]);
    await this.writePendingEnds();
  }

  /**
   * Graceful stop (SIGTERM): claims nothing more, gives back at once the jobs it holds but has not
   * started, lets the calls in flight finish for up to `timeoutMs`, then drops the rest and gives
   * their leases back too, so another executor runs them now instead of after the lease time.
   */
  async drain(timeoutMs: number): Promise<{ finished: boolean; released: number }> {
    this.running = false;
    const closing = this.stopListening();
    this.wake();
    await this.loop;
    await closing;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled([...this.inFlight]).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    // The runs that ended are written before any lease is given back: a lease given back with its
    // run's end unwritten would have another executor run the function again.
    await this.writePendingEnds();
    if (!finished) this.abandoned = true;
    const released = finished ? 0 : await releaseLeasesOf({ database: this.database, workerId: this.workerId });
    return { finished, released };
  }

  /**
   * Stops at once and records nothing more, as if the process had died mid-call: jobs in flight
   * keep their leases until they expire and another executor reclaims them. For tests.
   */
  async abandon(): Promise<void> {
    this.abandoned = true;
    this.running = false;
    // As if the process died: the ends not written yet are lost, their jobs keep their leases.
    clearTimeout(this.endsTimer);
    this.endsTimer = undefined;
    this.pendingEnds = [];
    const closing = this.stopListening();
    this.wake();
    await this.loop;
    await closing;
  }

  /**
   * Looks for work now (new events, a finished call, a moved test clock). `newEvents`: only new
   * events may be waiting (what a work notification or an accepted event says), not due jobs.
   */
  wake(options: { newEvents?: boolean } = {}): void {
    if (!options.newEvents) this.claimWanted = true;
    this.fanOutWanted = true;
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /** A call ended and may have left jobs (a step to run, a sleep): a pass that claims them, without a fan-out. */
  private wakeForJobs(): void {
    this.claimWanted = true;
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  get busy(): boolean {
    return this.inFlight.size > 0 || this.pendingEnds.length > 0 || this.endsWriting !== undefined;
  }

  /** The functions learned from the serve endpoint (after the first successful poll). */
  get knownFunctions(): FunctionDefinition[] {
    return this.functionList;
  }

  private async runLoop(): Promise<void> {
    const startedAt = Date.now();
    let loggedWaiting = false;
    if (this.options.reclaimOwnLeasesOnStart) {
      const released = await releaseLeasesOf({ database: this.database, workerId: this.workerId }).catch((error: unknown) => {
        this.logger.warn(`embedded executor: could not take back the leases of ${this.workerId}: ${String(error)}`);
        return 0;
      });
      if (released > 0) this.logger.info(`embedded executor: took back ${released} job(s) left leased by the previous process`);
    }
    while (this.running) {
      this.wakeRequested = false;
      let found = 0;
      this.polls++;
      this.passLeftWork = true; // until the pass shows otherwise
      this.passing = true;
      this.slotFreedInPass = false;
      try {
        found = await this.pollOnce();
        // Whether the pass itself ran out of slots, not whether they are all taken when it ends:
        // a call that ended meanwhile made that answer "no" for work left behind (issue 37: a call
        // ending during a pass wanted a claim, 0.3 claims per capture at 100 a second).
        this.passLeftWork = this.passRanOutOfSlots || this.freeSlots() === 0;
        this.options.onPoll?.();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // While the server is still starting, the first sync cannot reach /api/inngest yet:
        // that is not worth an error until it lasts.
        // Functions the executor refuses are never a start-up delay: they are reported at once.
        const starting = !this.functions && Date.now() - startedAt < STARTUP_GRACE_MS && !(error instanceof UnsupportedFunctionsError);
        if (starting) {
          if (!loggedWaiting) this.logger.info(`embedded executor: waiting for ${this.options.serveUrl} (${message})`);
          loggedWaiting = true;
        } else {
          this.logger.error(`embedded executor: poll failed: ${message}`);
          this.options.onPoll?.(message);
        }
      }
      this.passing = false;
      // A call ended during the pass, and the pass may have left work it had no slot for.
      if (this.slotFreedInPass && this.passLeftWork) this.wakeForJobs();
      if (!this.running) break;
      // A full batch may have left more waiting (unless every slot is taken: then a call that ends
      // wakes the loop); a batch that was not full took everything due (as graphile-worker and River refetch).
      if (found > 0 && this.passWasFull && this.freeSlots() > 0) {
        this.claimWanted = true;
        continue;
      }
      if (this.wakeRequested) continue;
      const waitMs = this.functions ? await this.idleWaitMs() : Math.min(this.pollIntervalMs, 200);
      if (this.wakeRequested) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          // The idle timer: a job fell due, or the safety poll.
          this.claimWanted = true;
          resolve();
        }, waitMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** One pass: learn the functions (once), start runs for new events, start due jobs. */
  async pollOnce(): Promise<number> {
    if (!this.functions) await this.sync();
    else if (Date.now() - this.syncedAt > RESYNC_INTERVAL_MS) {
      // Picks up functions added since (a redeploy behind a shared database, next dev reloads).
      await this.sync().catch((error: unknown) => {
        if (error instanceof UnsupportedFunctionsError) throw error;
        this.logger.warn(`embedded executor: re-sync failed, keeping the known functions: ${String(error)}`);
      });
    }
    const now = this.clock.now();
    this.lastPassAt = now.getTime();
    this.passRanOutOfSlots = false;
    if (this.options.retentionMs !== undefined && Date.now() - this.prunedAt > PRUNE_INTERVAL_MS) {
      this.prunedAt = Date.now();
      await this.prune(now);
    }
    const scheduled = await this.startCronRuns(now);
    // drain() may have begun while this pass waited on the database: a draining executor claims
    // nothing more (what it leased would only be handed back at once).
    if (!this.running) return scheduled;
    const leaseFor = (limit: number) => ({ workerId: this.workerId, leaseMs: this.leaseMs, limit });
    const slots = this.freeSlots();
    // Cleared before the statement: events stored while it runs (its snapshot may miss them) ask again.
    const fanOut = this.fanOutWanted || Date.now() - this.lastFanOutAtMs >= this.pollIntervalMs;
    this.fanOutWanted = false;
    if (fanOut) this.lastFanOutAtMs = Date.now();
    const { started, leased, picked } = fanOut
      ? await fanOutEvents({
          database: this.database,
          functions: this.knownFunctions,
          now,
          limit: FAN_OUT_BATCH,
          leaseFor: leaseFor(slots),
        }).catch((error: unknown) => {
          this.fanOutWanted = true;
          throw error;
        })
      : { started: 0, leased: [], picked: 0 };
    // A full batch may have left more events waiting.
    if (picked >= FAN_OUT_BATCH) this.fanOutWanted = true;
    if (leased.length < started && leased.length >= slots) this.passRanOutOfSlots = true;
    for (const work of leased) this.launch(work);
    if (!this.running) return scheduled + started;
    // Woken only by new events (or a lease given back: the notification does not tell them apart),
    // every run this pass started leased to itself, and a claim run less than
    // CLAIM_AT_LEAST_EVERY_MS ago that saw nothing due by now: a claim would nearly always find
    // nothing (issue 37: it was a second statement per capture at 100 a second; decision 0217).
    // Jobs this executor's own calls leave wake it with a claim; whatever else waits is claimed
    // within CLAIM_AT_LEAST_EVERY_MS, by the next pass or by the idle timer (claimOwedBy).
    const last = this.lastClaim;
    if (
      !this.claimWanted &&
      leased.length === started &&
      last !== undefined &&
      now.getTime() - last.atMs < CLAIM_AT_LEAST_EVERY_MS &&
      (last.nextDue === null || last.nextDue.getTime() > now.getTime())
    ) {
      this.lastClaimNextDue = { at: last.nextDue };
      this.claimOwedBy = last.atMs + CLAIM_AT_LEAST_EVERY_MS;
      this.passWasFull = picked >= FAN_OUT_BATCH;
      return scheduled + started;
    }
    const limit = this.freeSlots();
    // Cleared before the statement: a wake-up that wants a claim while it runs (work its snapshot
    // may miss) sets it again for the next pass.
    const wanted = this.claimWanted;
    this.claimWanted = false;
    const claim = await claimDueJobsAndNextDue({ database: this.database, workerId: this.workerId, now, leaseMs: this.leaseMs, limit }).catch(
      (error: unknown) => {
        this.claimWanted = true;
        throw error;
      },
    );
    const jobs = claim.jobs;
    if (limit === 0 || jobs.length >= limit) this.passRanOutOfSlots = true;
    this.lastClaimNextDue = claim.nextDueAt === undefined ? undefined : { at: claim.nextDueAt };
    if (claim.nextDueAt === undefined) this.claimWanted ||= wanted; // no slot free: nothing was looked at
    else {
      this.lastClaim = { atMs: now.getTime(), nextDue: claim.nextDueAt };
      this.claimOwedBy = undefined;
    }
    this.passWasFull = picked >= FAN_OUT_BATCH || (limit > 0 && jobs.length >= limit);
    for (const job of jobs) this.launch({ job, run: claim.runs.get(job.id) });
    return scheduled + started + jobs.length;
  }

  /** Starts the runs of cron triggers whose fire time passed since the last poll. */
  private async startCronRuns(now: Date): Promise<number> {
    const after = this.cronCheckedAt ?? now;
    if (after.getTime() >= now.getTime()) {
      this.cronCheckedAt = after;
      return 0;
    }
    let started = 0;
    const fired: string[] = [];
    for (const fn of this.knownFunctions) {
      for (const schedule of fn.crons ?? []) {
        const key = cronKey(fn, schedule);
        const next = this.cronFireAfter(key, schedule, after);
        if (next === undefined || next > now.getTime()) continue;
        for (const fireAt of cronFireTimes(schedule, after, now)) {
          if (await startScheduledRun({ database: this.database, fn, cron: schedule.cron, fireAt, now })) started++;
        }
        fired.push(key);
      }
    }
    // Only once every fire time is recorded: a failed poll tries again.
    this.cronCheckedAt = now;
    // Their next fire times count from now; the others' cached ones are still the first after now.
    for (const key of fired) this.nextCronFires.delete(key);
    return started;
  }

  /** A schedule's first fire time after `after` (ms), from the cache or computed once. */
  private cronFireAfter(key: string, schedule: CronSchedule, after: Date): number | undefined {
    if (this.nextCronFires.has(key)) return this.nextCronFires.get(key);
    const [first] = cronFireTimes(schedule, after, new Date(after.getTime() + 366 * 86_400_000), 1);
    const at = first?.getTime();
    this.nextCronFires.set(key, at);
    return at;
  }

  /** Deletes history older than the retention (one batch per interval keeps each poll short). */
  async prune(now: Date = this.clock.now()): Promise<{ runs: number; events: number }> {
    if (this.options.retentionMs === undefined) return { runs: 0, events: 0 };
    const pruned = await pruneHistory({ database: this.database, before: new Date(now.getTime() - this.options.retentionMs) }).catch(
      (error: unknown) => {
        this.logger.warn(`embedded executor: pruning old runs failed: ${String(error)}`);
        return { runs: 0, events: 0 };
      },
    );
    if (pruned.runs + pruned.events > 0)
      this.logger.info(`embedded executor: deleted ${pruned.runs} finished run(s) and ${pruned.events} event(s) past retention`);
    return pruned;
  }

  /**
   * Until the loop looks again unless woken: the safety poll, or less when a job (sleep, retry,
   * expired lease) or a cron fire time falls due sooner. A job already due that the last pass did
   * not take (its concurrency group is full, or every slot here is busy) is looked at again within
   * a second, not in a busy loop: a call ending in this process wakes the loop sooner.
   */
  private async idleWaitMs(): Promise<number> {
    const now = this.clock.now().getTime();
    let wait = this.pollIntervalMs;
    const cron = this.nextCronFire();
    if (cron !== undefined) wait = Math.min(wait, Math.max(cron - now, 0) + 1);
    // A claim a pass left out (pollOnce) is made up when events stop coming.
    if (this.claimOwedBy !== undefined) wait = Math.min(wait, Math.max(this.claimOwedBy - now, 0) + 1);
    try {
      // The last claim's statement already said when the next job falls due (unless it did not run).
      const next = this.lastClaimNextDue ? this.lastClaimNextDue.at : await nextDueAt({ database: this.database });
      this.lastClaimNextDue = undefined;
      if (next) {
        const dueIn = next.getTime() - now;
        // Due after the last pass looked: look again now. Due before, yet not taken: in a second.
        const missedByLastPass = this.lastPassAt !== undefined && next.getTime() > this.lastPassAt;
        wait = Math.min(wait, dueIn > 0 ? dueIn + 1 : missedByLastPass && this.freeSlots() > 0 ? 0 : 1_000);
      }
    } catch {
      // the safety poll tries again
    }
    return wait;
  }

  /** The first cron fire time after the last one handled, over every function. */
  private nextCronFire(): number | undefined {
    const after = this.cronCheckedAt;
    if (after === undefined) return undefined;
    let at: number | undefined;
    for (const fn of this.knownFunctions) {
      for (const schedule of fn.crons ?? []) {
        const next = this.cronFireAfter(cronKey(fn, schedule), schedule, after);
        if (next !== undefined && (at === undefined || next < at)) at = next;
      }
    }
    return at;
  }

  private freeSlots(): number {
    return Math.max(this.concurrency - this.inFlight.size, 0);
  }

  /** Works on a job, then on the run's next discovery call if finishing the job leased it to us. */
  private launch(first: { job: ClaimedJob; run?: RunForCall }): void {
    // Whether to look for work once this task ends: unless the last result provably left none.
    let lookAgain = true;
    const task = (async () => {
      let work: { job: ClaimedJob; run?: RunForCall } | undefined = first;
      while (work && !this.abandoned) {
        if (!this.running) {
          await releaseLease({ database: this.database, job: work.job });
          return;
        }
        const current: { job: ClaimedJob; run?: RunForCall } = work;
        const processed = await this.process(current.job, current.run).catch((error: unknown) => {
          this.logger.error(
            `embedded executor: job ${current.job.id} of run ${current.job.runId}: ${error instanceof Error ? error.message : String(error)}`,
          );
          return undefined;
        });
        work = processed?.next;
        lookAgain = processed?.lookAgain ?? true;
      }
    })().finally(() => {
      this.inFlight.delete(task);
      if (lookAgain) this.wakeForJobs();
      else if (this.passing) this.slotFreedInPass = true;
      else if (this.passLeftWork) this.wakeForJobs();
    });
    this.inFlight.add(task);
  }

  private async sync(): Promise<void> {
    const { functions, problems } = await syncFunctions({ serveUrl: this.options.serveUrl, signingKey: this.options.signingKey });
    const changed = JSON.stringify(functions) !== JSON.stringify(this.knownFunctions);
    this.syncedAt = Date.now();
    if (!changed && this.functions) return;
    this.functions = new Map(functions.map((fn) => [fn.id, fn]));
    this.functionList = functions;
    this.nextCronFires.clear();
    for (const problem of problems) this.logger.warn(`embedded executor: ${problem}`);
    this.logger.info(`embedded executor: ${functions.length} function(s) at ${this.options.serveUrl}`);
  }

  /** `lookAgain` is false only when the job's result provably left no work for a pass to find. */
  private async process(job: ClaimedJob, known?: RunForCall): Promise<{ next?: LeasedWork; lookAgain: boolean } | undefined> {
    const run = known ?? (await loadRunForCall(this.database, job.runId));
    if (!run) return undefined;
    let result: JobResult;
    if (job.kind === "sleep") {
      // A sleep that is due is over: memoized as null.
      result = { memoize: [{ hashedId: job.hashedId, name: job.name, memo: null }] };
    } else {
      const outcome = await this.callWithLease(job, run);
      if (this.abandoned) return undefined;
      result = this.interpret(job, run, outcome);
    }
    if (this.abandoned) return undefined;
    if (this.endsWithOthers(job, run, result)) {
      this.queueEnd({ job, result, now: this.clock.now() });
      return { lookAgain: false };
    }
    const finished = await this.record(job, result);
    if (!finished) return undefined;
    if (finished.outcome === "lease-lost")
      this.logger.warn(`embedded executor: lost the lease of job ${job.id} (run ${job.runId}); its result was dropped`);
    return { next: finished.next, lookAgain: finished.outcome !== "applied" || finished.createdWork !== false };
  }

  /**
   * Whether this job's result is a run's end that may be written with others (decision 0218): the
   * run's first call completed or failed it, so nothing else of the run can be pending (the
   * fan-out makes one job per run; only a call's answer adds more), and its function has no
   * concurrency limit, whose slot the job would hold meanwhile. The follow-up job is such a run.
   */
  private endsWithOthers(job: ClaimedJob, run: RunForCall, result: JobResult): boolean {
    if (!(result.complete || result.fail) || !this.running) return false;
    if (job.kind !== "discovery" || run.steps.length > 0) return false;
    const fn = this.functions?.get(run.functionId);
    return fn !== undefined && fn.concurrency === undefined;
  }

  private queueEnd(end: PendingRunEnd): void {
    this.pendingEnds.push(end);
    if (this.pendingEnds.length >= RUN_END_BATCH_MAX) void this.writePendingEnds();
    else this.endsTimer ??= setTimeout(() => void this.writePendingEnds(), this.runEndBatchMs);
  }

  /**
   * Writes the waiting run ends in one statement; if it fails (the database, or a value it
   * refuses), each on its own as any other result, with record()'s retries and its rule for
   * refused values.
   */
  private async writePendingEnds(): Promise<void> {
    clearTimeout(this.endsTimer);
    this.endsTimer = undefined;
    await this.endsWriting;
    const ends = this.pendingEnds.splice(0);
    if (ends.length === 0) return;
    const writing = (async () => {
      let outcomes: (string | undefined)[];
      try {
        outcomes = await endRunsTogether(this.database, ends);
        this.runEndBatches.statements++;
        this.runEndBatches.ends += ends.length;
      } catch {
        outcomes = ends.map(() => undefined);
      }
      for (const [index, end] of ends.entries()) {
        let outcome = outcomes[index];
        if (outcome === undefined) {
          if (this.abandoned) return;
          outcome = (await this.record(end.job, end.result))?.outcome;
        }
        if (outcome === "lease-lost")
          this.logger.warn(`embedded executor: lost the lease of job ${end.job.id} (run ${end.job.runId}); its result was dropped`);
      }
    })().finally(() => {
      if (this.endsWriting === writing) this.endsWriting = undefined;
    });
    this.endsWriting = writing;
    await writing;
  }

  /**
   * Records a job's result, trying again over a busy database. A result the database refuses as
   * data (SQLSTATE class 22, e.g. text with NUL characters) would fail the same way after every
   * lease expiry, re-running its step each time: the run fails instead. Any other persistent
   * error leaves the job leased; it is run again when the lease expires.
   */
  private async record(job: ClaimedJob, result: JobResult): Promise<Awaited<ReturnType<typeof finishJob>> | undefined> {
    const leaseFor = { workerId: this.workerId, leaseMs: this.leaseMs, limit: 1 };
    let lastError: unknown;
    for (const delayMs of [0, 200, 1_000, 3_000]) {
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (this.abandoned) return undefined;
      try {
        return await finishJob({
          database: this.database,
          job,
          result,
          now: this.clock.now(),
          leaseFor: this.running ? leaseFor : undefined,
        });
      } catch (error) {
        lastError = error;
        if (isDataException(error)) break;
      }
    }
    const message = `the executor could not record the result of ${job.kind} ${job.name ?? job.hashedId}: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
    this.logger.error(`embedded executor: run ${job.runId}: ${message}`);
    if (!isDataException(lastError)) return undefined;
    return finishJob({
      database: this.database,
      job,
      result: { fail: { error: { name: "ExecutorError", message: message.slice(0, 2000) } } },
      now: this.clock.now(),
    });
  }

  /** Makes the call while renewing the lease, so a slow but live call keeps its job. */
  private async callWithLease(job: ClaimedJob, run: RunForCall): Promise<CallOutcome> {
    this.callsMade++;
    const renewEvery = Math.max(Math.floor(this.leaseMs / 3), 1_000);
    const renewal = setInterval(() => {
      if (this.abandoned) return;
      void renewLease({ database: this.database, job, until: new Date(this.clock.now().getTime() + this.leaseMs) }).catch(() => {});
    }, renewEvery);
    try {
      return await callFunction({
        serveUrl: this.options.serveUrl,
        signingKey: this.options.signingKey,
        functionId: run.functionId,
        stepId: job.kind === "discovery" ? "step" : job.hashedId,
        body: this.callBody(job, run),
        timeoutMs: this.callTimeoutMs,
        handler: this.options.handler,
        invoke: this.options.invoke,
      });
    } finally {
      clearInterval(renewal);
    }
  }

  private callBody(job: ClaimedJob, run: RunForCall): CallRequestBody {
    const stack = run.steps.map((step) => step.hashedId);
    return {
      event: run.event,
      events: [run.event],
      steps: Object.fromEntries(run.steps.map((step) => [step.hashedId, step.memo])),
      ctx: {
        run_id: run.id,
        attempt: job.attempt,
        max_attempts: run.maxAttempts,
        disable_immediate_execution: run.forceStepPlan,
        use_api: false,
        stack: { stack, current: stack.length },
      },
      version: run.requestVersion,
    };
  }

  /** What an answer of the SDK means for the run (./interpret.ts). */
  interpret(job: ClaimedJob, run: RunForCall, outcome: CallOutcome): JobResult {
    return interpretOutcome({ job, run, outcome, now: this.clock.now(), retryJitterMs: this.retryJitterMs });
  }
}

const cronKey = (fn: FunctionDefinition, schedule: CronSchedule) => `${fn.id}\n${schedule.cron}`;

/** Whether PostgreSQL refused a value itself (SQLSTATE class 22), which no retry can change. */
function isDataException(error: unknown): boolean {
  // Through Prisma the SQLSTATE is in the message or its meta; from the driver (pg) it is `code`.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code)) return true;
  const text = error instanceof Error ? `${error.message} ${JSON.stringify((error as { meta?: unknown }).meta ?? {})}` : String(error);
  return /\b22[0-9A-Z]{3}\b/.test(text) || /unsupported Unicode escape sequence|invalid byte sequence/i.test(text);
}
