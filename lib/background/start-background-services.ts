// The services that run inside the Next.js server process next to the request handlers.
// Each entry starts one service when the configuration asks for it; they start in this order.
import { config } from "../env";
import { startEmbeddedExecutor } from "../inngest/executor/start-embedded-executor";

type ServiceStarter = { name: string; start: () => Promise<void> };

const services: ServiceStarter[] = [
  // Background work (Inngest): runs the app's functions in-process unless an Inngest server is configured.
  { name: "embedded Inngest executor", start: startEmbeddedExecutor },
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
