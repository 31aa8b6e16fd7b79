// Per-process caches of what changes rarely and is read on every merchant API request (API keys,
// a merchant's acquirer accounts and routing rules, its notification addresses), kept correct
// across processes by PostgreSQL: triggers on those tables (migration settings_change_notifications)
// send a notification on SETTINGS_CHANNEL with every change, delivered at commit to every process
// that listens; each process keeps one connection that does, and drops everything it cached when
// one arrives. So a change made anywhere (back office, CLI, another process, plain SQL) is seen by
// every process as soon as the notification reaches it, within milliseconds of the commit: a key
// revoked in one process is refused by the others from their next request
// (docs/decisions/0170-settings-cache.md).
// Nothing is cached while that connection is not listening (not yet, or lost): every read then goes
// to the database, and a reconnect drops what was cached, since changes may have been missed. A
// value read while a change was notified is not kept (the generation it was read under is gone).
// Caching starts only once a notification sent from another connection has arrived: a server that
// does not pass notifications between connections (the embedded PGlite's socket server) gets none.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { config } from "../env";
import { log } from "../observability/logger";

/** The channel the settings triggers notify on (payload: the table's name). */
export const SETTINGS_CHANNEL = "cps_settings";

const RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
/** How long the probe notification may take to arrive before the server is taken not to deliver them. */
const PROBE_TIMEOUT_MS = 5_000;

interface ListenerState {
  /** Bumped by every notification and every (re)connect or loss: a cached value of another generation is stale. */
  generation: number;
  listening: boolean;
  client?: pg.Client;
  url?: string;
  connecting?: boolean;
  retryTimer?: NodeJS.Timeout;
  retryMs: number;
  warned: boolean;
  /** The payload of the probe sent from another connection, and what to call when it arrives. */
  probe?: { payload: string; arrived: () => void };
  /** The database's URL when its server was found not to deliver notifications across connections. */
  undeliveredUrl?: string;
}

const state = ((globalThis as unknown as { __cpsSettingsListener?: ListenerState }).__cpsSettingsListener ??= {
  generation: 0,
  listening: false,
  retryMs: RETRY_MS,
  warned: false,
});

/**
 * The generation under which a value read now may be cached, or undefined when nothing may be
 * cached now (not listening). Starts the listener on first use, and again for another database.
 */
export function settingsGeneration(): number | undefined {
  const url = config().DATABASE_URL;
  if (!url) return undefined;
  if (state.url !== url) {
    stopListening();
    state.url = url;
  }
  if (state.undeliveredUrl === url) return undefined;
  if (!state.listening && !state.connecting && !state.retryTimer) void connect(url);
  return state.listening ? state.generation : undefined;
}

function lost(client: pg.Client, reason: string): void {
  if (state.client !== client) return;
  state.client = undefined;
  state.listening = false;
  state.generation++;
  client.removeAllListeners("notification");
  void client.end().catch(() => {});
  if (!state.warned) log("db").warn(`settings notifications: ${reason}; caching off until listening again`);
  state.warned = true;
  const url = state.url;
  state.retryTimer = setTimeout(() => {
    state.retryTimer = undefined;
    if (url && state.url === url) void connect(url);
  }, state.retryMs);
  state.retryTimer.unref();
  state.retryMs = Math.min(state.retryMs * 2, MAX_RETRY_MS);
}

async function connect(url: string): Promise<void> {
  state.connecting = true;
  const client = new pg.Client({ connectionString: url, application_name: "cps-settings-listen" });
  state.client = client;
  client.on("error", (error) => lost(client, error.message));
  client.on("end", () => lost(client, "connection ended"));
  client.on("notification", (message) => {
    if (message.channel !== SETTINGS_CHANNEL) return;
    state.generation++;
    if (state.probe && message.payload === state.probe.payload) state.probe.arrived();
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${SETTINGS_CHANNEL}`);
    // An idle listener does not keep a process (a script, a test) alive.
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  } catch (error) {
    state.connecting = false;
    lost(client, error instanceof Error ? error.message : String(error));
    return;
  }
  let delivered: boolean;
  try {
    delivered = await probe(url);
  } catch (error) {
    state.connecting = false;
    lost(client, `the probe could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  state.connecting = false;
  if (state.client !== client) return; // stopped or replaced meanwhile
  if (!delivered) {
    // Not a lost connection: this server keeps notifications to the connection that sent them.
    state.undeliveredUrl = url;
    stopListening();
    log("db").info("settings notifications do not reach other connections on this database: settings are read on every request");
    return;
  }
  // Whatever changed before LISTEN took effect is unknown: start from nothing.
  state.generation++;
  state.listening = true;
  state.retryMs = RETRY_MS;
  if (state.warned) log("db").info("settings notifications: listening again");
  state.warned = false;
}

/**
 * Whether a notification sent from another connection reaches the listener (within
 * PROBE_TIMEOUT_MS); throws when it could not be sent.
 */
async function probe(url: string): Promise<boolean> {
  const payload = `probe:${randomBytes(8).toString("hex")}`;
  let timer: NodeJS.Timeout | undefined;
  const arrived = new Promise<boolean>((resolve) => {
    state.probe = { payload, arrived: () => resolve(true) };
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  const sender = new pg.Client({ connectionString: url, application_name: "cps-settings-probe" });
  sender.on("error", () => {});
  try {
    await sender.connect();
    await sender.query("SELECT pg_notify($1, $2)", [SETTINGS_CHANNEL, payload]);
  } finally {
    void sender.end().catch(() => {});
  }
  try {
    return await arrived;
  } finally {
    clearTimeout(timer);
    state.probe = undefined;
  }
}

/**
 * Resolves once this process caches settings (true), or knows it will not for this database
 * (false: PGlite, or not reachable within `timeoutMs`). For tests and the bench.
 */
export async function settingsCacheListening(timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (settingsGeneration() !== undefined) return true;
    if (state.undeliveredUrl !== undefined && state.undeliveredUrl === state.url) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** Closes the listener (graceful shutdown, a database change in tests); the next use starts it again. */
export function stopListening(): void {
  const client = state.client;
  state.client = undefined;
  state.listening = false;
  state.connecting = false;
  state.generation++;
  clearTimeout(state.retryTimer);
  state.retryTimer = undefined;
  if (client) {
    client.removeAllListeners();
    client.on("error", () => {});
    void client.end().catch(() => {});
  }
}

/**
 * One cache of values by key, valid while their generation is current. Concurrent misses of one
 * key share one load (a busy merchant's first requests make one query, not one each). At most
 * `maxEntries` are kept (all are dropped past it: a flood of distinct keys costs bounded memory).
 */
export class SettingsCache<V> {
  private readonly entries = new Map<string, { generation: number; value: Promise<V> }>();

  constructor(private readonly maxEntries = 10_000) {}

  /** The value for `key`, from the cache or from `load()`; `keep(value)` false leaves it uncached (unknown keys). */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const generation = settingsGeneration();
    if (generation === undefined) return load();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    const entry = { generation, value };
    this.entries.set(key, entry);
    value.then(
      (loaded) => {
        // Stale if a change was notified while it loaded, or not to be kept.
        if ((state.generation !== generation || !state.listening || !keep(loaded)) && this.entries.get(key) === entry)
          this.entries.delete(key);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
