// The gateway's 3DS server side towards the directory server: AReq -> ARes, and the RReq result after
// a challenge. Which one depends on the payment's mode: live payments go to THREEDS_SERVER_URL only,
// never to the sandbox; test payments to THREEDS_TEST_SERVER_URL or, when unset, to the in-process
// sandbox, which the sandbox launcher registers here with its API key (production code never
// imports simulators).
import { config } from "../env";
import type { Mode } from "../mode";
import { ares, crd, erro, rreq, type AReq, type ARes, type Crd, type RReq } from "./messages";
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
  /** The Erro message's errorCode, when the 3DS Server answered one. */
  readonly errorCode?: string;
  constructor(message: string, errorCode?: string) {
    super(message);
    this.errorCode = errorCode;
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
  if (mode === "live")
    throw new ThreeDsUnavailableError("THREEDS_SERVER_URL is not configured (live payments never use the 3-D Secure sandbox)");
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
      // 3dsecure.io's server information: every request carries exactly this Content-Type.
      headers: { "content-type": "application/json; charset=utf-8", apikey: apiKey },
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
      if (error instanceof BodyTooLargeError) throw new ThreeDsUnavailableError(`3DS Server answer larger than ${MAX_ANSWER_BYTES} bytes`);
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
    throw new ThreeDsUnavailableError(`3DS Server unreachable: ${error instanceof Error ? error.name : "error"}`);
  }
}

/** What an answer that is not the expected message says, for the operation log (never card data). */
function refusal(what: string, status: number, json: unknown): ThreeDsUnavailableError {
  const error = erro.safeParse(json);
  if (error.success) {
    const { errorCode, errorDescription, errorDetail } = error.data;
    return new ThreeDsUnavailableError(
      `3DS Server refused ${what}: Erro ${errorCode}${errorDescription ? ` ${errorDescription}` : ""}${errorDetail ? ` (${errorDetail.slice(0, 300).replace(/\d{12,19}/g, "[digits]")})` : ""}`,
      errorCode,
    );
  }
  return new ThreeDsUnavailableError(
    `3DS Server answered HTTP ${status} without ${what === "/auth" ? "an ARes" : what === "/preauth" ? "a CRD" : "an RReq"}`,
  );
}

/**
 * /preauth (3dsecure.io preauth.rst): the threeDSServerTransID the browser /auth must use (valid 80 s),
 * the protocol versions and the 3DS Method URL of the card's range. Erro 305: the card is not enrolled.
 */
export async function sendPreauth(acctNumber: string, mode: Mode): Promise<Crd> {
  const { status, json } = await post(mode, "/preauth", { acctNumber });
  const parsed = crd.safeParse(json);
  if (status !== 200 || !parsed.success) throw refusal("/preauth", status, json);
  return parsed.data;
}

/** Card data that must not be kept with a stored message (an ARes or RReq carries none; this is a guard). */
const CARD_FIELDS = new Set(["acctNumber", "cardExpiryDate", "cardholderName"]);

/** The message as the 3DS Server sent it, every field kept but card data: what Clearhaus takes whole. */
export function storableMessage(json: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json as Record<string, unknown>).filter(([key]) => !CARD_FIELDS.has(key)));
}

/** The AReq of a payment of `mode` to that mode's 3DS Server; the ARes parsed, and whole (`message`). */
export async function sendAReq(message: AReq, mode: Mode): Promise<ARes & { message: Record<string, unknown> }> {
  const { status, json } = await post(mode, "/auth", message);
  const parsed = ares.safeParse(json);
  if (status !== 200 || !parsed.success) throw refusal("/auth", status, json);
  return { ...parsed.data, message: storableMessage(json) };
}

/**
 * The RReq of a finished challenge (postauth.rst). The 3DS Server has no "still pending" answer: an
 * RReq not (yet, or any more: it is cached 300 s) there is Erro 203 "Unknown threeDSServerTransID".
 */
export async function fetchResult(threeDSServerTransID: string, mode: Mode): Promise<RReq & { message: Record<string, unknown> }> {
  const { status, json } = await post(mode, "/postauth", { threeDSServerTransID });
  const parsed = rreq.safeParse(json);
  if (status !== 200 || !parsed.success) throw refusal("/postauth", status, json);
  return { ...parsed.data, message: storableMessage(json) };
}
