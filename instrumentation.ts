// Runs once when the Next.js server starts: starts the in-process background services
// (the embedded Inngest executor and the acquirer sandboxes) where the configuration asks for them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Traces first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so that all later work is traced.
  const { startTracing } = await import("./lib/observability/tracing");
  startTracing();
  // First: route handlers learn the socket address only from this stamp (lib/http/peer-address.ts),
  // the back office gets its frame and transport headers at the same place, paths Next cannot
  // decode are refused there, and a connection answered before its body arrived lingers so that
  // the client reads the answer (lib/http/lingering-close.ts).
  const [{ stampPeerAddresses }, { setBackofficeHeaders }, { refuseBadlyEncodedPath }, { lingerIfAnsweredEarly }, { applyServerTimeouts }] = await Promise.all([
    import("./lib/http/peer-address"),
    import("./lib/http/backoffice-headers"),
    import("./lib/api/refuse-badly-encoded-path"),
    import("./lib/http/lingering-close"),
    import("./lib/http/server-timeouts"),
  ]);
  stampPeerAddresses((request, response) => {
    // Request, header and connection limits of the server (lib/http/server-timeouts.ts), set once.
    applyServerTimeouts((request.socket as { server?: import("node:http").Server } | null)?.server);
    lingerIfAnsweredEarly(request);
    if (refuseBadlyEncodedPath(request, response)) return true;
    setBackofficeHeaders(request, response);
  });
  // Each acquirer's own variables are valid, and production refuses the process-wide acquirer
  // credentials of earlier versions (lib/acquirers/environment.ts).
  const { checkAcquirerEnvironment } = await import("./lib/acquirers/environment");
  checkAcquirerEnvironment();
  const { startBackgroundServices } = await import("./lib/jobs/start-background-services");
  await startBackgroundServices();
}
