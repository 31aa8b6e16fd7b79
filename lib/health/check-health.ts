// GET /api/health (spec 4.9): the state of every interface host, the back office and the public
// website, from real checks of what each one needs.
import type { ComponentStatus } from "../inngest/executor-status";
import { checkBackgroundWork } from "./check-background-work";
import { db } from "../db";
import { config, type ApiHost } from "../env";
import { log } from "../observability/logger";

export type HealthReport = { api: Array<{ api: string; status: "ok" | "error"; msg: string }> } & Record<string, unknown>;

const DATABASE_TIMEOUT_MS = 2_000;
/** Seconds after the process started during which a slow database answer is expected, not alarming. */
const STARTUP_GRACE_SECONDS = 60;

export async function checkDatabase(): Promise<ComponentStatus> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db().$queryRaw`SELECT 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS);
      }),
    ]);
    return { status: "ok", msg: "" };
  } catch (error) {
    // The health answer is public: a driver's message names internal hosts and addresses, so it goes
    // to the log only and the answer says what is wrong in fixed words. The reason without a stack
    // (a time-out's stack says nothing); while the process is still starting (the first probes come
    // before the pool is warm, and the first start builds on a busy machine) it is not a warning.
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    if (process.uptime() < STARTUP_GRACE_SECONDS) log("health").info({ reason }, "health check: the database did not answer yet (starting)");
    else log("health").warn({ reason }, "health check: the database did not answer");
    return { status: "error", msg: "database: unreachable" };
  } finally {
    clearTimeout(timer);
  }
}

function combine(...parts: ComponentStatus[]): ComponentStatus {
  const errors = parts.filter((part) => part.status === "error").map((part) => part.msg);
  return errors.length ? { status: "error", msg: errors.join("; ") } : { status: "ok", msg: "" };
}

/** The member names of the back-office and website entries: their host names, kept apart when equal. */
export function hostMemberNames(backofficeBaseUrl: string, websiteBaseUrl: string): { backoffice: string; website: string } {
  const backoffice = new URL(backofficeBaseUrl).hostname;
  const website = new URL(websiteBaseUrl).hostname;
  return backoffice === website || backoffice === "api" || website === "api"
    ? { backoffice: "backoffice", website: "website" }
    : { backoffice, website };
}

const API_HOSTS: ApiHost[] = ["cit", "mit", "capture", "refund", "payout", "payment"];
// Payout answers on the request's own connection; the others hand their work to the background.
const ASYNCHRONOUS: ReadonlySet<ApiHost> = new Set(["cit", "mit", "capture", "refund", "payment"]);

export async function checkHealth(): Promise<{ healthy: boolean; report: HealthReport }> {
  const [database, background] = await Promise.all([checkDatabase(), checkBackgroundWork()]);
  const api = API_HOSTS.map((host) => {
    const status = ASYNCHRONOUS.has(host) ? combine(database, background) : database;
    return { api: host, ...status };
  });
  const names = hostMemberNames(config().backofficeBaseUrl, config().websiteBaseUrl);
  const backoffice = database;
  const website: ComponentStatus = { status: "ok", msg: "" };
  const report: HealthReport = { api, [names.backoffice]: backoffice, [names.website]: website };
  const healthy = api.every((entry) => entry.status === "ok") && backoffice.status === "ok";
  return { healthy, report };
}
