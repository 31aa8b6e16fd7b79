// Wakes executors in every process when new work is stored, instead of each polling for it.
// Writers of work that another process should start at once (an accepted event, a lease given
// back) call pg_notify on one channel in the statement (or transaction) that stores it; PostgreSQL
// delivers the notification at commit to every connection that LISTENs on the channel, in any
// process. Each executor keeps one dedicated connection for that (not from the pool: a pooled
// connection is handed to other queries and would miss notifications). A notification carries no
// data: it only means "poll now". Notifications can be lost (a dropped connection, a restart), so
// the executor still polls slowly as a safety net, and polls at once after every (re)connect.
import pg from "pg";

/** The channel every work notification goes to. */
export const WORK_CHANNEL = "cps_inngest_work";

/** SQL that notifies the listeners (inside a transaction: at its commit). */
export const NOTIFY_WORK_SQL = `SELECT pg_notify('${WORK_CHANNEL}', '')::text AS "notified"`;

export interface WorkListener {
  close(): Promise<void>;
}

export interface ListenForWorkOptions {
  connectionString: string;
  /** Called for every notification, and after every (re)connect (notifications may have been missed). */
  onWork: () => void;
  logger?: { info(message: string): void; warn(message: string): void };
  /** Delay before reconnecting after the connection failed; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/** Listens on the work channel over its own connection, reconnecting until closed. */
export function listenForWork(options: ListenForWorkOptions): WorkListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delayMs = options.retryMs ?? 500;
  const maxDelayMs = options.maxRetryMs ?? 10_000;
  let warned = false;

  const scheduleReconnect = (reason: string) => {
    if (closed || retryTimer) return;
    if (!warned) options.logger?.warn(`work notifications: ${reason}; reconnecting (the safety poll covers the gap)`);
    warned = true;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, delayMs);
    retryTimer.unref();
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  };

  const connect = async () => {
    if (closed) return;
    const current = new pg.Client({ connectionString: options.connectionString, application_name: "cps-executor-listen" });
    client = current;
    let failed = false;
    const fail = (reason: string) => {
      if (failed) return;
      failed = true;
      current.removeAllListeners("notification");
      void current.end().catch(() => {});
      if (client === current) client = undefined;
      scheduleReconnect(reason);
    };
    current.on("error", (error) => fail(error.message));
    current.on("end", () => fail("connection ended"));
    current.on("notification", (message) => {
      if (message.channel === WORK_CHANNEL) options.onWork();
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${WORK_CHANNEL}`);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
      return;
    }
    if (closed) {
      await current.end().catch(() => {});
      return;
    }
    if (warned) options.logger?.info("work notifications: listening again");
    warned = false;
    delayMs = options.retryMs ?? 500;
    options.onWork(); // whatever was notified while we were not listening
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners();
        current.on("error", () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
