// The only list of the acquirer sandboxes (one folder each, ./<name>/sandbox.ts): a fourth acquirer's
// sandbox is its folder and its line here.
import type { AcquirerName } from "../../acquirers/names";
import type { AcquirerSandbox } from "./acquirer-sandbox";
import { bamboraSandbox } from "./bambora/sandbox";
import { WORLDLINE_PLATFORM_SANDBOX } from "./bambora/worldline/platform-sandbox";
import { clearhausSandbox } from "./clearhaus/sandbox";
import { finaroSandbox } from "./finaro/sandbox";

/** Each acquirer's sandbox by its name (tests/unit/acquirers/names.test.ts holds each key equal to its sandbox's name). */
export const SANDBOXES = { finaro: finaroSandbox, clearhaus: clearhausSandbox, bambora: bamboraSandbox } satisfies Record<AcquirerName, AcquirerSandbox>;

/**
 * Bambora's second platform, Worldline Direct (docs/decisions/0193): a sandbox of its own, started
 * when asked for (startSandboxes({ worldline: true }); the service starts it for test mode).
 */
export const WORLDLINE_SANDBOX = WORLDLINE_PLATFORM_SANDBOX;

/** The sandboxes of acquirers' other platforms (docs/decisions/0193): one line each. */
export const PLATFORM_SANDBOXES = [WORLDLINE_PLATFORM_SANDBOX] as const;
export type PlatformSandbox = (typeof PLATFORM_SANDBOXES)[number];
