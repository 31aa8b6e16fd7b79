// The services that run inside the Next.js server process next to the request handlers.
// Each entry starts one service when the configuration asks for it; they start in this order.
// `role`: which processes run it (ROLE, lib/runtime/role.ts): web, worker or any.
// This is the launcher: the one module of the service that imports the sandboxes (lib/sandboxes),
// which register their addresses and credentials with the registries as configuration.
// Periodic work is not here: it is cron functions (./scheduled.ts), one run per schedule across
// all instances; only the sub-minute session-expiry ticker runs in-process.
import { config, installPlainProcessEnv } from "../env";
import { startEmbeddedExecutor } from "../inngest/start-embedded-executor";
import { startEventRelayService } from "../inngest/event-relay";
import { startProcessorSandboxes } from "../sandboxes/acquirers/background-service";
import { startSessionExpiryTicker } from "./session-expiry-ticker";
import { warmBrowserBundles } from "../cardholder/warm-browser-bundles";
import { runsService, type ServiceRole } from "../runtime/role";
import { installGracefulShutdown } from "../runtime/graceful-shutdown";
import { resealSigningSecrets } from "../notifications/signing-secrets";
import { lazyLogger } from "../observability/logger";

type ServiceStarter = { name: string; role: ServiceRole; start: () => Promise<void> };

const services: ServiceStarter[] = [
  // processors: acquirer and 3-D Secure sandboxes for every processor whose base URL is not configured
  // (before the executor, whose jobs may call the processors).
  { name: "processor sandboxes", role: "any", start: async () => void (await startProcessorSandboxes()) },
  // Background work (Inngest): runs the app's functions in-process unless an Inngest server is configured.
  // Its calls go to the SDK's comm handler in this process directly, not over HTTP nor through
  // serve()'s signed protocol (serve-functions.ts), imported here only: a web process need not load
  // every function at start. The SDK lists process.env on every call: a plain copy makes that cheap.
  {
    name: "embedded Inngest executor",
    role: "worker",
    start: async () => {
      if (config().inngestMode === "embedded") installPlainProcessEnv();
      await startEmbeddedExecutor({ invoke: (await import("./serve-functions")).invokeFunctionDirectly });
    },
  },
  // Background work with an Inngest server: forwards the outbox events stored with state changes
  // (lib/inngest/event-relay.ts); in every role, as there may be no worker process at all.
  { name: "Inngest event relay", role: "any", start: startEventRelayService },
  // notifications: signing secrets copied in clear by their migration are sealed (review 3, M3); not awaited.
  {
    name: "signing-secret sealing",
    role: "worker",
    start: async () =>
      void resealSigningSecrets().catch((error: unknown) => lazyLogger("notifications").warn("could not seal the signing secrets", error)),
  },
  // cardholder: closes expired payment windows every second and stores their time-out completion
  // notification (safe in every instance at once). Where the background work runs (decision 0239):
  // in embedded mode the worker's executor is what sends that notification, so a web process's
  // sweep of its own would only repeat the worker's (one query a second, a fifth to a third of an
  // idle process's CPU); with an Inngest server in every role, as there may be no worker process at all.
  { name: "session expiry ticker", role: "background", start: startSessionExpiryTicker },
  // cardholder: builds dynamic.js and the hosted-field frame scripts before the first cardholder arrives (not awaited).
  { name: "hosted-field bundles", role: "web", start: async () => void warmBrowserBundles() },
];

const state = globalThis as unknown as { __cpsBackgroundStarted?: boolean };

export async function startBackgroundServices(): Promise<void> {
  if (state.__cpsBackgroundStarted) return;
  state.__cpsBackgroundStarted = true;
  config(); // fail fast on a bad configuration
  installGracefulShutdown();
  for (const service of services) {
    if (runsService(service.role)) await service.start();
  }
}
