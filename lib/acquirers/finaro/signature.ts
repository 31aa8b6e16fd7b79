// Finaro (Credorax) signature `K`: SHA-256 over all values sorted by key name, each value with
// < > " ' ( ) \ replaced by a space and trimmed, joined, followed by the merchant's signature key
// ([AM-CR] sign_request_with_sha256; the MID must be set up for SHA-256, MD5 being the legacy default).
import { createHash, timingSafeEqual } from "node:crypto";

export function sanitizeFinaroValue(value: string): string {
  return value.replace(/[<>"'()\\]/g, " ").trim();
}

export function finaroSignature(fields: Record<string, string>, signatureKey: string): string {
  const joined = Object.keys(fields)
    .filter((key) => key !== "K")
    .sort()
    .map((key) => sanitizeFinaroValue(fields[key]!))
    .join("");
  return createHash("sha256")
    .update(joined + signatureKey)
    .digest("hex");
}

/**
 * The answer's `K`, checked with the request algorithm over the answer's other values as received.
 * How Finaro signs answers is not public (docs/acquirers.md: unverified), so this runs only where
 * the algorithm is known to hold: our sandbox, or a MID whose operator turned it on.
 * "missing": the answer has no K at all (some refusals are recorded so).
 */
export function checkFinaroAnswerSignature(body: string, signatureKey: string): "valid" | "invalid" | "missing" {
  const fields = Object.fromEntries(new URLSearchParams(body));
  const presented = fields.K;
  if (!presented) return "missing";
  const expected = Buffer.from(finaroSignature(fields, signatureKey));
  const given = Buffer.from(presented.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given) ? "valid" : "invalid";
}
