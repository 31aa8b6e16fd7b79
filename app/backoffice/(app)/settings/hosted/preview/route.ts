// GET /backoffice/settings/hosted/preview?field=pan&styling={...}: one real hosted field page (the
// same HTML, stylesheet and field script the cardholder gets) rendered with styling that is still
// being edited, for the editor's live preview. Signed-in users only; framed by our own pages only.
import { currentUser } from "@/lib/auth/session";
import { browserBundle } from "@/lib/cardholder/browser-bundles";
import { fieldPageHtml, newNonce, pageResponse } from "@/lib/cardholder/frame-page";
import { FIELD_KINDS, type FieldKind } from "@/lib/cardholder/protocol";
import { hostedStylingSchema, type HostedStyling } from "@/lib/validation/hosted-styling";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return new Response("Sign in first.", { status: 401 });
  const url = new URL(request.url);
  const field = url.searchParams.get("field") ?? "pan";
  if (!(FIELD_KINDS as readonly string[]).includes(field)) return new Response("Unknown field.", { status: 400 });
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
    html: fieldPageHtml({ kind: field as FieldKind, config: { sessionid: "preview", field: field as FieldKind, parentOrigin: url.origin }, styling, script: code, nonce }),
    nonce,
    frameAncestors: [],
    fontOrigins: [...new Set((styling.fonts ?? []).map((font) => new URL(font.src).origin))],
  });
}
