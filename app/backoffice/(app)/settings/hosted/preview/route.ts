// GET /backoffice/settings/hosted/preview?field=pan&styling={...}: one real hosted field page (the
// same HTML, stylesheet and field script the cardholder gets) rendered with styling that is still
// being edited, for the editor's live preview. Signed-in users only; framed by our own pages only.
//
// The field script talks to its parent only at the origin named in its configuration, and refuses
// to start when the page that frames it has another origin. That origin used to be this request's
// URL as Next builds it, from its own settings (http://localhost:<port> under npm start), not from
// the name the browser used: opened as http://127.0.0.1:3000 the preview stayed blank. The editor now sends
// the origin the browser shows it (`parent`); nothing is trusted from it: the page is still framed
// only by its own origin (frame-ancestors 'self', X-Frame-Options SAMEORIGIN) and the script checks
// its real ancestor, so a forged value only breaks that one preview
// (docs/decisions/0073-back-office-accounts-audit-404-favicon-preview-on.md).
import { z } from "zod";
import { currentUser } from "@/lib/auth/session";
import { browserBundle } from "@/lib/cardholder/browser-bundles";
import { fieldPageHtml, newNonce, pageResponse } from "@/lib/cardholder/frame-page";
import { FIELD_KINDS, type FieldKind } from "@/lib/cardholder/protocol";
import { hostedStylingSchema, type HostedStyling } from "@/lib/validation/hosted-styling";

export const dynamic = "force-dynamic";

/** An origin exactly (scheme, host, port; no path): what `window.location.origin` gives. */
const parentOriginSchema = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.origin === value;
    } catch {
      return false;
    }
  });

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return new Response("Sign in first.", { status: 401 });
  const url = new URL(request.url);
  const field = url.searchParams.get("field") ?? "pan";
  if (!(FIELD_KINDS as readonly string[]).includes(field)) return new Response("Unknown field.", { status: 400 });
  const parent = url.searchParams.get("parent");
  const parentOrigin = parent === null ? url.origin : parentOriginSchema.safeParse(parent).data;
  if (!parentOrigin) return new Response("Invalid parent origin.", { status: 400 });
  let styling: HostedStyling = {};
  try {
    const parsed = hostedStylingSchema.safeParse(JSON.parse(url.searchParams.get("styling") || "{}"));
    // Invalid styling previews as the defaults; the editor shows why next to the field.
    if (parsed.success) styling = parsed.data;
  } catch {
    // not JSON: defaults
  }
  const { code } = await browserBundle("field");
  const nonce = newNonce();
  return pageResponse({
    html: fieldPageHtml({ kind: field as FieldKind, config: { sessionid: "preview", field: field as FieldKind, parentOrigin }, styling, script: code, nonce }),
    nonce,
    frameAncestors: [],
    fontOrigins: [...new Set((styling.fonts ?? []).map((font) => new URL(font.src).origin))],
  });
}
