// The gateway's 3DS server side towards the directory server: AReq -> ARes, and the RReq result after
// a challenge. Which one depends on the payment's mode: live payments go to THREEDS_SERVER_URL only,
// never to the sandbox; test payments to THREEDS_TEST_SERVER_URL or, when unset, to the in-process
// sandbox, which the sandbox launcher registers here with its API key (production code never
// imports simulators).
import { config } from "../env";
import type { Mode } from "../mode";
import { ares, rreq, type AReq, type ARes, type RReq } from "./messages";
import { BodyTooLargeError, readLimitedStream } from "../http/read-limited-body";

type FetchHandler = (request: Request) => Promise<Response>;

const state = globalThis as unknown as {
  __cpsThreeDsSandboxUrl?: string;
  __cpsThreeDsSandboxApiKey?: string;
  __cpsThreeDsSandboxHandler?: FetchHandler;
};

export function registerThreeDsSandboxUrl(url: string | undefined, apiKey?: string): void {
  state.__cpsThreeDsSandboxUrl = url;
  if (apiKey) state.__cpsThreeDsSandboxApiKey = apiKey;
}

/** The in-process sandbox's handler, which the service also serves under /sandbox/threeds (app/sandbox). */
export function registerThreeDsSandboxHandler(handler: FetchHandler | undefined): void {
  state.__cpsThreeDsSandboxHandler = handler;
}

export function threeDsSandboxHandler(): FetchHandler | undefined {
  return state.__cpsThreeDsSandboxHandler;
}

export function threeDsSandboxUrl(): string | undefined {
  return state.__cpsThreeDsSandboxUrl;
}

/** The largest DS answer read (an ARes or RReq is a few KB). */
const MAX_ANSWER_BYTES = 256 * 1024;

export class ThreeDsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ThreeDsUnavailableError";
  }
}

function endpoint(mode: Mode): { url: string; apiKey: string } {
  const settings = config();
  const [url, key, names] =
    mode === "live"
      ? [settings.THREEDS_SERVER_URL, settings.THREEDS_API_KEY, ["THREEDS_SERVER_URL", "THREEDS_API_KEY"]]
      : [settings.THREEDS_TEST_SERVER_URL, settings.THREEDS_TEST_API_KEY, ["THREEDS_TEST_SERVER_URL", "THREEDS_TEST_API_KEY"]];
  if (url) {
    if (!key) throw new ThreeDsUnavailableError(`${names[1]} is required when ${names[0]} is set`);
    return { url: url.replace(/\/+$/, ""), apiKey: key };
  }
  if (mode === "live") throw new ThreeDsUnavailableError("THREEDS_SERVER_URL is not configured (live payments never use the 3-D Secure sandbox)");
  const sandbox = threeDsSandboxUrl();
  if (!sandbox) throw new ThreeDsUnavailableError("THREEDS_TEST_SERVER_URL is not configured and the 3-D Secure sandbox is not running");
  const apiKey = state.__cpsThreeDsSandboxApiKey;
  if (!apiKey) throw new ThreeDsUnavailableError("the 3-D Secure sandbox was registered without its API key");
  return { url: sandbox, apiKey };
}

async function post(mode: Mode, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const { url, apiKey } = endpoint(mode);
  try {
    // No redirects: undici keeps custom headers such as `apikey` on a redirect to another origin, so a
    // redirecting DS would hand THREEDS_API_KEY to whatever it names (security review 3, L9).
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(config().PROCESSOR_TIMEOUT_MS),
      redirect: "manual",
    });
    if (response.status >= 300 && response.status < 400) {
      void response.body?.cancel().catch(() => undefined);
      return { status: response.status, json: undefined };
    }
    // An ARes or RReq is a few KB; the answer is read to a cap, never whole.
    let text: string;
    try {
      text = (await readLimitedStream(response.body, MAX_ANSWER_BYTES)).toString("utf8");
    } catch (error) {
      void response.body?.cancel().catch(() => undefined);
      if (error instanceof BodyTooLargeError) throw new ThreeDsUnavailableError(`directory server answer larger than ${MAX_ANSWER_BYTES} bytes`);
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  } catch (error) {
    if (error instanceof ThreeDsUnavailableError) throw error;
    throw new ThreeDsUnavailableError(`directory server unreachable: ${error instanceof Error ? error.name : "error"}`);
  }
}

/** The AReq of a payment of `mode` to that mode's directory server. */
export async function sendAReq(message: AReq, mode: Mode): Promise<ARes> {
  const { status, json } = await post(mode, "/auth", message);
  const parsed = ares.safeParse(json);
  if (status !== 200 || !parsed.success) throw new ThreeDsUnavailableError(`directory server answered HTTP ${status} without an ARes`);
  return parsed.data;
}

/** The RReq of a finished challenge, or undefined while the challenge is still open. */
export async function fetchResult(threeDSServerTransID: string, mode: Mode): Promise<RReq | undefined> {
  const { status, json } = await post(mode, "/postauth", { threeDSServerTransID });
  if (status === 409) return undefined;
  const parsed = rreq.safeParse(json);
  if (status !== 200 || !parsed.success) throw new ThreeDsUnavailableError(`directory server answered HTTP ${status} without an RReq`);
  return parsed.data;
}
