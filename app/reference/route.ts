// GET /reference: the API reference, rendered in the browser by Scalar from /api/openapi.json. Both
// the page and the renderer are served by the service itself (no CDN, no outside fonts).
export const dynamic = "force-static";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Card Payment Service API reference</title>
    <style>
      /* Until the renderer has drawn the reference (a second or more), the page says so. */
      #loading { font: 16px system-ui, sans-serif; color: #475569; margin: 3rem auto; max-width: 40rem; text-align: center; }
      body:has(.scalar-app) #loading { display: none; }
      /* Error codes in the description's table stay whole (INVALID_MERCHANTID, not INVALID_MERCHA / NTID). */
      table td:first-child code, table td:first-child { white-space: nowrap; }
    </style>
  </head>
  <body>
    <p id="loading">Loading the API reference… (the document itself: <a href="/api/openapi.json">/api/openapi.json</a>)</p>
    <script id="api-reference" data-url="/api/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true,"telemetry":false,"agent":{"disabled":true},"mcp":{"disabled":true},"showDeveloperTools":"never"}'></script>
    <script src="/reference/scalar.js"></script>
  </body>
</html>
`;

export function GET(): Response {
  return new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
