// lib/acquirers/names.ts is the only list of acquirer names: the database enum, the registered
// modules and the sandboxes are held equal to it, so that a fourth acquirer missing from one of them
// fails here instead of at its first payment.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACQUIRERS, DEFAULT_ROUTING } from "@/lib/acquirers";
import { ACQUIRER_LABELS, ACQUIRER_NAMES, acquirerNameList, isAcquirerName } from "@/lib/acquirers/names";
import { Processor } from "@/lib/generated/prisma/enums";
import { SANDBOXES } from "@/lib/sandboxes/acquirers";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the list of acquirer names", () => {
  it("is the Prisma enum Processor, in the schema and in the generated client", () => {
    const schema = readFileSync(path.join(ROOT, "prisma/schema/merchant.prisma"), "utf8");
    const declared = /enum Processor \{([^}]*)\}/.exec(schema)?.[1]?.split(/\s+/).filter(Boolean);
    expect(new Set(declared)).toEqual(new Set(ACQUIRER_NAMES));
    expect(new Set(Object.values(Processor))).toEqual(new Set(ACQUIRER_NAMES));
  });

  it("is the list of registered modules and of sandboxes, each under its own name", () => {
    expect(Object.keys(ACQUIRERS)).toEqual([...ACQUIRER_NAMES]);
    expect(Object.keys(SANDBOXES)).toEqual([...ACQUIRER_NAMES]);
    for (const name of ACQUIRER_NAMES) {
      expect(ACQUIRERS[name].name, name).toBe(name);
      expect(SANDBOXES[name].name, name).toBe(name);
      expect(ACQUIRER_LABELS[name], name).toMatch(/\S/);
    }
  });

  it("gives every acquirer a place in a new merchant's routing, the secondary order the reverse of the primary", () => {
    expect([...DEFAULT_ROUTING[1]].sort()).toEqual([...ACQUIRER_NAMES].sort());
    expect([...DEFAULT_ROUTING[2]]).toEqual([...DEFAULT_ROUTING[1]].reverse());
    expect(new Set(ACQUIRER_NAMES.map((name) => ACQUIRERS[name].routingRank)).size).toBe(ACQUIRER_NAMES.length);
  });

  it("knows its own names only, and says them in a sentence", () => {
    for (const name of ACQUIRER_NAMES) expect(isAcquirerName(name)).toBe(true);
    expect(isAcquirerName("toString")).toBe(false);
    expect(isAcquirerName("adyen")).toBe(false);
    expect(acquirerNameList()).toBe(`${ACQUIRER_NAMES.slice(0, -1).join(", ")} or ${ACQUIRER_NAMES.at(-1)}`);
  });
});
