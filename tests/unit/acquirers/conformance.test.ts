// Every registered acquirer module, and the template `npm run new:acquirer` copies, pass the
// conformance kit (./conformance-kit.ts): their answer fixtures mean what the contract says, their
// capability table is their methods, their credential form is their schema.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACQUIRERS } from "@/lib/acquirers";
import type { AcquirerConnector, AcquirerModule } from "@/lib/acquirers/contract";
import { xacquirer } from "@/lib/acquirers/_template";
import {
  answerProblems,
  capabilityMismatches,
  credentialMismatches,
  implementedOperations,
  OUTCOMES,
  readManifest,
  type Operation,
} from "./conformance-kit";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const MODULES: { label: string; module: AcquirerModule; dir: string }[] = [
  ...Object.entries(ACQUIRERS).map(([name, module]) => ({ label: name, module: module as AcquirerModule, dir: path.join(ROOT, "lib/acquirers", name) })),
  { label: "the template", module: xacquirer as AcquirerModule, dir: path.join(ROOT, "lib/acquirers/_template") },
];

for (const { label, module, dir } of MODULES) {
  describe(`acquirer module ${label}`, () => {
    const manifest = readManifest(dir);

    it("has a capability table that is its connector's methods", () => {
      expect(capabilityMismatches(module)).toEqual([]);
    });

    it("has credential form fields that are its schema's keys, required ones required", () => {
      expect(credentialMismatches(module, manifest)).toEqual([]);
    });

    it("has an approved, declined, refused and unreadable answer for every operation it implements", () => {
      const missing = implementedOperations(module).flatMap((operation) =>
        OUTCOMES.filter((outcome) => !manifest.cases[operation]?.[outcome]).map((outcome) => `${operation} ${outcome}`),
      );
      expect(missing).toEqual([]);
      const extra = Object.keys(manifest.cases).filter((operation) => !implementedOperations(module).includes(operation as Operation));
      expect(extra, "cases for operations the connector does not have").toEqual([]);
    });

    it("reads each answer as what it is", { timeout: 60_000 }, async () => {
      expect(await answerProblems(module, dir, manifest)).toEqual([]);
    });
  });
}

describe("the kit itself", () => {
  const dir = path.join(ROOT, "lib/acquirers/_template");
  const manifest = readManifest(dir);

  it("finds a connector that takes every answer for an approval, one that sends nothing, and a capability that is not a method", { timeout: 60_000 }, async () => {
    const optimistic: AcquirerModule = {
      ...(xacquirer as AcquirerModule),
      createConnector: (settings) => {
        const real = xacquirer.createConnector(settings as Parameters<typeof xacquirer.createConnector>[0]) as AcquirerConnector<unknown>;
        return { ...real, capture: async (request, call) => ({ ...(await real.capture(request, call)), status: "approved", failure: undefined }) };
      },
    };
    expect(await answerProblems(optimistic, dir, manifest)).toEqual([
      expect.stringMatching(/^capture declined: approved/),
      expect.stringMatching(/^capture refused: approved/),
      expect.stringMatching(/^capture unreadable: approved/),
    ]);
    const silent: AcquirerModule = {
      ...(xacquirer as AcquirerModule),
      createConnector: (settings) => ({
        ...(xacquirer.createConnector(settings as Parameters<typeof xacquirer.createConnector>[0]) as AcquirerConnector<unknown>),
        void: async () => ({ status: "failed", failure: "declined", responsecode: "58", message: "refused here" }),
      }),
    };
    expect((await answerProblems(silent, dir, manifest)).filter((problem) => problem.startsWith("void"))).toHaveLength(4);
    expect(capabilityMismatches({ ...(xacquirer as AcquirerModule), capabilities: { ...xacquirer.capabilities, payouts: false } })).toEqual([
      "payout: capabilities say false, the connector has the method",
    ]);
  });

  it("finds a form field the schema does not require", () => {
    expect(
      credentialMismatches({ ...(xacquirer as AcquirerModule), credentials: { ...xacquirer.credentials, fields: [...xacquirer.credentials.fields, { key: "extra", label: "Extra", secret: false }] } }, manifest),
    ).toEqual(["required field extra is not in the sample credentials", "required field extra may be left out"]);
  });
});
