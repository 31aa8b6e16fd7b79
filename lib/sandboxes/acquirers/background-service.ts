// The background service that starts the sandboxes inside the Next server process for every
// processor (and the 3-D Secure DS) whose base URL is not configured.
import { config } from "../../env";
import { isProcessorConfigured } from "../../processors/registry";
import { PROCESSOR_NAMES } from "../../processors/types";
import { startSandboxes, type RunningSandboxes } from "./start-sandboxes";
import { THREEDS_SANDBOX_MOUNT } from "../threeds/mount";
import { log } from "../../observability/logger";

/** PROCESSOR_SANDBOXES, or by default: on unless the service runs in production. */
export function sandboxesEnabled(): boolean {
  const settings = config();
  switch (settings.PROCESSOR_SANDBOXES) {
    case "1":
    case "true":
      return true;
    case "0":
    case "false":
      return false;
    default:
      return !settings.isProduction;
  }
}

/** Returns the running sandboxes (undefined when every processor is configured), so tests can close them. */
export async function startProcessorSandboxes(): Promise<RunningSandboxes | undefined> {
  const settings = config();
  if (!sandboxesEnabled()) return undefined;
  const processors = PROCESSOR_NAMES.filter((name) => !isProcessorConfigured(name));
  const threeDs = !settings.THREEDS_DS_URL;
  if (processors.length === 0 && !threeDs) return undefined;
  // The challenge page is served by the service itself (app/sandbox/threeds), so a browser that can
  // reach the hosted fields can reach it too, wherever the service runs.
  const running = await startSandboxes({
    processors,
    threeDs,
    ports: { threeds: settings.THREEDS_SANDBOX_PORT },
    threeDsPublicUrl: `${settings.apiBaseUrls.cit}${THREEDS_SANDBOX_MOUNT}`,
  });
  if (settings.LOG_LEVEL !== "silent") {
    log("processors").info(
      `sandboxes: ${Object.entries(running.urls)
        .map(([name, url]) => `${name} ${url}`)
        .join(", ")}`,
    );
  }
  return running;
}
