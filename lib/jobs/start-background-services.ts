// The services that run inside the Next.js server process next to the request handlers.
// Each entry starts one service when the configuration asks for it; they start in this order.
import { config } from "../env";
import { startEmbeddedExecutor } from "../inngest/executor/start-embedded-executor";
import { startProcessorSandboxes } from "../sandboxes/acquirers/background-service";
import { startReconcilePoller } from "../processors/reconcile-poller";
import { startCardUpdatePoller } from "../notifications/card-update-poller";
import { startSessionExpirySweeper } from "../payments/session-expiry-sweeper";
import { warmBrowserBundles } from "../cardholder/warm-browser-bundles";

type ServiceStarter = { name: string; start: () => Promise<void> };

const services: ServiceStarter[] = [
  // processors: acquirer and 3-D Secure sandboxes for every processor whose base URL is not configured
  // (before the executor, whose jobs may call the processors).
  { name: "processor sandboxes", start: async () => void (await startProcessorSandboxes()) },
  // Background work (Inngest): runs the app's functions in-process unless an Inngest server is configured.
  { name: "embedded Inngest executor", start: startEmbeddedExecutor },
  // merchant-api: life cycle management, polls the processors' card-update feeds (after the sandboxes).
  { name: "card-update poller", start: startCardUpdatePoller },
  // merchant-api: closes expired payment windows and sends their time-out completion notification.
  { name: "session expiry sweeper", start: startSessionExpirySweeper },
  // cardholder: builds dynamic.js and the hosted-field frame scripts before the first cardholder arrives (not awaited).
  { name: "hosted-field bundles", start: async () => void warmBrowserBundles() },
  // processors: voids late approvals behind authorization time-outs (after the sandboxes and the database are up).
  { name: "time-out reconciliation", start: startReconcilePoller },
];

const state = globalThis as unknown as { __cpsBackgroundStarted?: boolean };

export async function startBackgroundServices(): Promise<void> {
  if (state.__cpsBackgroundStarted) return;
  state.__cpsBackgroundStarted = true;
  config(); // fail fast on a bad configuration
  for (const service of services) {
    await service.start();
  }
}
