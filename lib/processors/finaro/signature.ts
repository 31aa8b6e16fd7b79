// Finaro (Credorax) request signature `K`: SHA-256 over all values sorted by key name, each value with
// < > " ' ( ) \ replaced by a space and trimmed, joined, followed by the merchant's signature key.
import { createHash } from "node:crypto";

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
