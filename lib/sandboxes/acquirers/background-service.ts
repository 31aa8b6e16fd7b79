// The background service that starts the sandboxes inside the Next server process for test mode:
// for every processor (and the 3-D Secure DS) without a test endpoint (*_TEST_BASE_URL,
// THREEDS_TEST_SERVER_URL). Live mode never reaches them (lib/acquirers/registry.ts). Its sandboxes run
// with their extensions on (look-ups, card-update feeds, fault modes, scenario cards), which the
// connectors use only because the registry knows the address is a sandbox's.
import { config } from "../../env";
import { ACQUIRER_NAMES } from "../../acquirers/names";
import { startSandboxes, type RunningSandboxes } from "./start-sandboxes";
import { PLATFORM_SANDBOXES } from "./index";
import { THREEDS_SANDBOX_MOUNT } from "../threeds/mount";
import { log } from "../../observability/logger";

/** PROCESSOR_SANDBOXES, or by default: on (they serve test mode only, in production too). */
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
      return true;
  }
}

/** Returns the running sandboxes (undefined when every processor has a test endpoint), so tests can close them. */
export async function startProcessorSandboxes(): Promise<RunningSandboxes | undefined> {
  const settings = config();
  if (!sandboxesEnabled()) return undefined;
  const processors = ACQUIRER_NAMES.filter((name) => !settings.acquirers[name].testBaseUrl);
  const threeDs = !settings.THREEDS_TEST_SERVER_URL;
  if (processors.length === 0 && !threeDs) return undefined;
  // The challenge page is served by the service itself (app/sandbox/threeds), so a browser that can
  // reach the hosted fields can reach it too, wherever the service runs.
  const running = await startSandboxes({
    processors,
    threeDs,
    ports: { threeds: settings.THREEDS_SANDBOX_PORT },
    // <NAME>_REPORTING_SANDBOX_PORT: where a test reaches a reporting sandbox's scenario endpoints.
    reportingPorts: Object.fromEntries(processors.map((name) => [name, settings.acquirers[name].reportingSandboxPort])),
    threeDsPublicUrl: `${settings.apiBaseUrls.cit}${THREEDS_SANDBOX_MOUNT}`,
    threeDsStrict: settings.THREEDS_SANDBOX === "strict",
    extensions: true,
    // The other platforms' sandboxes, unless their test endpoint is configured (docs/decisions/0193).
    worldline: PLATFORM_SANDBOXES.some((sandbox) => processors.includes(sandbox.processor) && !settings.acquirerVariables[sandbox.testEndpointVariable]),
  });
  if (settings.LOG_LEVEL !== "silent") {
    log("processors").info(
      `sandboxes: ${[...Object.entries(running.urls), ...Object.entries(running.reportingUrls).map(([name, url]) => [`${name} reporting`, url])]
        .map(([name, url]) => `${name} ${url}`)
        .join(", ")}`,
    );
  }
  return running;
}
