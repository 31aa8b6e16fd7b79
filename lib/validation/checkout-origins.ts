// Allowed checkout origins: the merchant pages that may embed the hosted fields (security item 8).
// An origin is written exactly as browsers send it, scheme://host[:port]: no path, query, fragment,
// credentials or wildcard; https only in production. Stored normalized (lower-case host, default
// port dropped), so that comparing with a request's origin is plain string equality.
import { z } from "zod";

export const MAX_CHECKOUT_ORIGINS = 20;

const ORIGIN_SHAPE = /^(https?):\/\/([^/?#@\s\\]+)$/i;

/** The normalized origin, or a reason in words why `value` is not one. */
export function parseCheckoutOrigin(value: string, { allowHttp }: { allowHttp: boolean }): { origin: string } | { error: string } {
  const text = value.trim();
  const shape = ORIGIN_SHAPE.exec(text);
  if (!shape) return { error: `“${text}” is not an origin: write scheme://host[:port], without a path` };
  if (shape[2]!.includes("*")) return { error: `“${text}”: wildcards are not allowed, list each origin` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `“${text}” is not an origin: write scheme://host[:port], without a path` };
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) return { error: `“${text}” must use https` };
  if (!url.hostname || url.origin === "null") return { error: `“${text}” has no host` };
  return { origin: url.origin };
}

/**
 * The list as the back office's form sends it (one origin per line, or separated by commas or
 * spaces) or as an array; empty means "no list" (any page that loads dynamic.js, as before).
 */
export function checkoutOriginsSchema(options: { allowHttp: boolean }) {
  return z
    .union([z.string().max(10_000), z.array(z.string().max(300)).max(MAX_CHECKOUT_ORIGINS)])
    .optional()
    .transform((input, context) => {
      const entries = (Array.isArray(input) ? input : (input ?? "").split(/[\s,]+/)).map((entry) => entry.trim()).filter(Boolean);
      const origins: string[] = [];
      for (const entry of entries) {
        const parsed = parseCheckoutOrigin(entry, options);
        if ("error" in parsed) {
          context.addIssue({ code: "custom", message: parsed.error });
          return z.NEVER;
        }
        if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
      }
      if (origins.length > MAX_CHECKOUT_ORIGINS) {
        context.addIssue({ code: "custom", message: `List at most ${MAX_CHECKOUT_ORIGINS} origins` });
        return z.NEVER;
      }
      return origins;
    });
}
