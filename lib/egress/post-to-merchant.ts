// The ONE way the service sends a request to an address a merchant chose (notification delivery,
// "send test notification"). It checks the destination (lib/egress), connects to the checked
// address only, follows no redirect, asks for an uncompressed answer and reads at most a few
// hundred bytes of it, then closes the connection: a receiver cannot make the service read its
// network (SSRF) or inflate a huge answer in memory. Failures come back as plain texts that do not
// tell a closed port from an open one.
import { Agent, request } from "undici";
import { checkedLookup, EGRESS_REFUSED } from "./checked-lookup";
import { checkMerchantUrl } from "./check-merchant-url";
import { egressPolicy, type EgressPolicy } from "./egress-policy";

/** What the back office shows of an answer (characters). */
export const RESPONSE_EXCERPT_CHARS = 512;
/** Bytes read for that excerpt: 512 characters of UTF-8 take at most 2048 bytes. */
const RESPONSE_EXCERPT_BYTES = RESPONSE_EXCERPT_CHARS * 4;

export const DESTINATION_NOT_ALLOWED = "destination not allowed";
export const COULD_NOT_CONNECT = "could not connect";

export interface PostToMerchantOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy?: EgressPolicy;
}

export interface MerchantAnswer {
  /** The receiver's HTTP status, null when there was no answer. */
  statusCode: number | null;
  /** The first RESPONSE_EXCERPT_CHARS characters of the answer's body (null when compressed or none). */
  responseExcerpt: string | null;
  /** Why there was no answer: "destination not allowed", "could not connect" or "no answer within N ms". */
  error: string | null;
}

function isEgressRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === EGRESS_REFUSED) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= RESPONSE_EXCERPT_BYTES) break; // leaving the loop destroys the stream: the rest is never read
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES)).slice(0, RESPONSE_EXCERPT_CHARS);
}

export async function postToMerchant({ url, headers, body, timeoutMs, policy = egressPolicy() }: PostToMerchantOptions): Promise<MerchantAnswer> {
  // Scheme and IP literals (a stored address may predate the rules); names are checked at lookup.
  if (checkMerchantUrl(url, policy) !== null) return { statusCode: null, responseExcerpt: null, error: DESTINATION_NOT_ALLOWED };
  const signal = AbortSignal.timeout(timeoutMs);
  // One agent per call: its only connection goes to the checked address and is closed afterwards.
  const agent = new Agent({ connect: { lookup: checkedLookup(policy), timeout: timeoutMs }, pipelining: 0 });
  try {
    const answer = await request(url, {
      method: "POST",
      headers: { ...headers, "accept-encoding": "identity" },
      body,
      dispatcher: agent,
      signal,
    });
    let responseExcerpt: string | null = null;
    const encoding = answer.headers["content-encoding"];
    if (!encoding || encoding === "identity") {
      // The status is the answer; a body that breaks off or comes too slowly only loses the excerpt.
      responseExcerpt = await readExcerpt(answer.body).catch(() => null);
    } else {
      // Compressed although we asked for identity: never inflated, not shown. Destroying an unread
      // body makes undici emit "Request aborted" on it, which is expected here.
      answer.body.on("error", () => undefined);
      answer.body.destroy();
    }
    return { statusCode: answer.statusCode, responseExcerpt, error: null };
  } catch (error) {
    if (isEgressRefusal(error)) return { statusCode: null, responseExcerpt: null, error: DESTINATION_NOT_ALLOWED };
    if (signal.aborted) return { statusCode: null, responseExcerpt: null, error: `no answer within ${timeoutMs} ms` };
    return { statusCode: null, responseExcerpt: null, error: COULD_NOT_CONNECT };
  } finally {
    void agent.destroy().catch(() => undefined);
  }
}
