// The background service that starts the sandboxes inside the Next server process for every
// processor (and the 3-D Secure DS) whose base URL is not configured. Local mode is a test bench:
// its sandboxes run with their extensions on (look-ups, card-update feeds, fault modes, scenario
// cards), which the connectors use only because the registry knows the address is a sandbox's.
import { config } from "../../env";
import { ACQUIRER_NAMES } from "./acquirer-name";
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
  const configured = { finaro: settings.FINARO_BASE_URL, clearhaus: settings.CLEARHAUS_BASE_URL, bambora: settings.BAMBORA_BASE_URL };
  const processors = ACQUIRER_NAMES.filter((name) => !configured[name]);
  const threeDs = !settings.THREEDS_DS_URL;
  if (processors.length === 0 && !threeDs) return undefined;
  // The challenge page is served by the service itself (app/sandbox/threeds), so a browser that can
  // reach the hosted fields can reach it too, wherever the service runs.
  const running = await startSandboxes({
    processors,
    threeDs,
    ports: { threeds: settings.THREEDS_SANDBOX_PORT },
    threeDsPublicUrl: `${settings.apiBaseUrls.cit}${THREEDS_SANDBOX_MOUNT}`,
    extensions: true,
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
