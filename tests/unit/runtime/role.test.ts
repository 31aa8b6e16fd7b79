// ROLE (lib/runtime/role.ts): which background services a process runs, and the settings it reads.
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { runsService } from "@/lib/runtime/role";

const secrets = { SESSION_SECRET: "s".repeat(32), API_KEY_SECRET: "a".repeat(32), CARD_DATA_KEY: Buffer.alloc(32, 1).toString("base64") };

describe("process roles", () => {
  it("a web process runs only web services, a worker only worker services, all of them both", () => {
    expect([runsService("web", "web"), runsService("worker", "web"), runsService("any", "web")]).toEqual([true, false, true]);
    expect([runsService("web", "worker"), runsService("worker", "worker"), runsService("any", "worker")]).toEqual([false, true, true]);
    expect([runsService("web", "all"), runsService("worker", "all"), runsService("any", "all")]).toEqual([true, true, true]);
  });

  it("background services (the session-expiry sweep) run where the executor runs in embedded mode, in every role with an Inngest server", () => {
    const embedded = () => "embedded" as const;
    const server = () => "server" as const;
    expect([runsService("background", "web", embedded), runsService("background", "worker", embedded), runsService("background", "all", embedded)]).toEqual([
      false,
      true,
      true,
    ]);
    expect([runsService("background", "web", server), runsService("background", "worker", server), runsService("background", "all", server)]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it("ROLE defaults to all; anything but web, worker or all is refused at start", () => {
    expect(parseEnv({ ...secrets }).ROLE).toBe("all");
    expect(parseEnv({ ...secrets, ROLE: "worker" }).ROLE).toBe("worker");
    expect(() => parseEnv({ ...secrets, ROLE: "scheduler" })).toThrow(/ROLE/);
  });

  it("shutdown drain: 5 s in production by default, none locally, as configured when set", () => {
    expect(parseEnv({ ...secrets, NODE_ENV: "production" }).shutdownDrainMs).toBe(5_000);
    expect(parseEnv({ ...secrets, NODE_ENV: "production", CPS_LOCAL: "1" }).shutdownDrainMs).toBe(0);
    expect(parseEnv({ ...secrets, NODE_ENV: "production", SHUTDOWN_DRAIN_MS: "1500" }).shutdownDrainMs).toBe(1_500);
    expect(parseEnv({ ...secrets }).SHUTDOWN_TIMEOUT_MS).toBe(25_000);
  });
});
