// Environment variables for a test file's services, set (or unset) and read again at once.
import { resetConfig } from "@/lib/env";

/**
 * Sets each variable, unsetting those given as undefined (so that `setEnv(saved)` puts back what a
 * file found), and makes the configuration read them again.
 */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
}
