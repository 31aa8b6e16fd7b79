// GET /favicon.ico: browsers (and pages of ours without a <link rel="icon">, such as the hosted-field
// frames) ask for it by this name; the icon is app/icon.svg. A relative Location: an absolute one
// built from request.url would name the address the server listens on, not the host in use.
export const dynamic = "force-static";

export function GET(): Response {
  return new Response(null, { status: 308, headers: { location: "/icon.svg", "cache-control": "public, max-age=86400" } });
}
