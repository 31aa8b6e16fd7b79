// The ONE way the service sends a request to an address a merchant chose (notification delivery,
// "send test notification"). It checks the destination (lib/egress), connects to the checked
// address only, follows no redirect, asks for an uncompressed answer and reads at most a few
// hundred bytes of it (a longer answer's connection is closed there): a receiver cannot make the
// service read its network (SSRF) or inflate a huge answer in memory. Failures come back as plain
// texts that do not tell a closed port from an open one.
// Connections are kept alive per origin and policy (a bounded set of undici pools), so a busy
// merchant's notifications do not each pay a TCP (and TLS) handshake: every NEW connection is
// still made through the checked lookup, to the addresses it checked, and a connection is reused
// only for the origin and policy it was checked for; it lives a few seconds idle and at most
// MAX_REQUESTS_PER_CONNECTION requests, so a changed DNS answer is followed soon
// (docs/decisions/0173-notifications-over-kept-alive-connections.md).
import { Pool, request } from "undici";
import { checkedLookup, isEgressRefusal } from "./checked-lookup";
import { checkMerchantUrl } from "./check-merchant-url";
import { egressPolicy, type EgressPolicy } from "./egress-policy";
import { boundedText } from "./bounded-read";

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

async function readExcerpt(body: AsyncIterable<Buffer>): Promise<string> {
  return (await boundedText(body, RESPONSE_EXCERPT_BYTES)).slice(0, RESPONSE_EXCERPT_CHARS);
}

/** Origins (per policy) whose connections are kept; past it the least recently used pool is closed. */
const MAX_POOLS = 128;
/** Connections at once per origin: more deliveries to one receiver wait for one of them. */
const CONNECTIONS_PER_ORIGIN = 16;
/** Idle connections close after this (undici also honours a shorter Keep-Alive: timeout= of the receiver). */
const KEEP_ALIVE_MS = 4_000;
/** A connection is closed after this many requests: a receiver's changed DNS answer is followed. */
const MAX_REQUESTS_PER_CONNECTION = 100;
/** The longest attempt time-out (15 s, delivery-schedule.ts): each request's own time-out is its signal. */
const CONNECT_TIMEOUT_MS = 15_000;

const pools = ((globalThis as unknown as { __cpsMerchantPools?: Map<string, Pool> }).__cpsMerchantPools ??= new Map());

/** What tells policies apart in a pool's key; kept for the process's own policy, which is frozen (egressPolicy()). */
const policyKeys = new WeakMap<EgressPolicy, string>();
function policyKey(policy: EgressPolicy): string {
  const kept = policyKeys.get(policy);
  if (kept !== undefined) return kept;
  const key = `${policy.requireHttps} ${policy.allowLoopback} ${policy.allowedNetworks.map((network) => network.join("/")).join(",")}`;
  if (Object.isFrozen(policy) && Object.isFrozen(policy.allowedNetworks)) policyKeys.set(policy, key);
  return key;
}

/** The pool for `origin` under `policy`: connections checked under one policy are never used under another. */
function poolFor(origin: string, policy: EgressPolicy): Pool {
  const key = `${origin} ${policyKey(policy)}`;
  let pool = pools.get(key);
  if (pool) {
    pools.delete(key); // most recently used last
  } else {
    pool = new Pool(origin, {
      connect: { lookup: checkedLookup(policy), timeout: CONNECT_TIMEOUT_MS },
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      maxRequestsPerClient: MAX_REQUESTS_PER_CONNECTION,
      pipelining: 1,
    });
    if (pools.size >= MAX_POOLS) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
      pools.delete(oldestKey);
      void oldest.close().catch(() => undefined); // lets its requests in flight finish
    }
  }
  pools.set(key, pool);
  return pool;
}

export async function postToMerchant({ url, headers, body, timeoutMs, policy = egressPolicy() }: PostToMerchantOptions): Promise<MerchantAnswer> {
  // Scheme and IP literals (a stored address may predate the rules); names are checked at lookup.
  if (checkMerchantUrl(url, policy) !== null) return { statusCode: null, responseExcerpt: null, error: DESTINATION_NOT_ALLOWED };
  // A timer of our own, cleared when the attempt ends: AbortSignal.timeout() makes a transferable
  // signal and fires (a DOMException) long after every attempt that answered in time.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = timeout.signal;
  try {
    const answer = await request(url, {
      method: "POST",
      headers: { ...headers, "accept-encoding": "identity" },
      body,
      dispatcher: poolFor(new URL(url).origin, policy),
      signal,
    });
    let responseExcerpt: string | null = null;
    const encoding = answer.headers["content-encoding"];
    if (!encoding || encoding === "identity") {
      // The status is the answer; a body that breaks off or comes too slowly only loses the excerpt.
      // A short body is read to its end, so its connection can be used again.
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
    clearTimeout(timer);
  }
}
