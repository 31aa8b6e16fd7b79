// The follow-up kinds are one table (lib/payments/follow-ups/kinds.ts): the connector contract, the
// database enums and every list in the code agree with it, and no file writes the list out again.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/tests/helpers/source-files";
import { FOLLOW_UP_OPERATIONS } from "@/lib/acquirers/contract";
import { NotificationKind, OperationType } from "@/lib/generated/prisma/enums";
import { Prisma } from "@/lib/db";
import { FOLLOW_UP_KINDS, FOLLOW_UP_TYPES, FOLLOW_UP_TYPES_SQL, isFollowUpType } from "@/lib/payments/follow-ups/kinds";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const sources = (dir: string) => sourceFiles(dir, (name) => /\.(ts|tsx)$/.test(name));

describe("the follow-up kinds", () => {
  it("are the connector contract's follow-up operations and operation types of the database", () => {
    expect(new Set(FOLLOW_UP_TYPES)).toEqual(new Set(FOLLOW_UP_OPERATIONS));
    const types = new Set<string>(Object.values(OperationType));
    for (const type of FOLLOW_UP_TYPES) expect(types.has(type), type).toBe(true);
    const notificationKinds = new Set<string>(Object.values(NotificationKind));
    for (const type of FOLLOW_UP_TYPES) {
      expect(notificationKinds.has(FOLLOW_UP_KINDS[type].notificationKind), type).toBe(true);
      expect(FOLLOW_UP_KINDS[type].connectorMethod, type).toBe(type);
    }
    expect(isFollowUpType("capture")).toBe(true);
    expect(isFollowUpType("payout")).toBe(false);
    expect(isFollowUpType("constructor")).toBe(false);
  });

  it("are an SQL list of literals, as a hand-written one would be", () => {
    const statement = Prisma.sql`SELECT 1 WHERE "type" IN (${FOLLOW_UP_TYPES_SQL})`;
    expect(statement.sql).toBe(`SELECT 1 WHERE "type" IN (${FOLLOW_UP_TYPES.map((type) => `'${type}'`).join(", ")})`);
    expect(statement.values).toEqual([]);
  });

  it("are written out nowhere but in the table and the connector contract", { timeout: 60_000 }, () => {
    // Every kind, quoted, on one line: a list of them ("capture" | "refund" | "void", or SQL's 'capture', 'refund', 'void').
    const quotedKinds = FOLLOW_UP_TYPES.map((type) => new RegExp(`["'\`]${type}["'\`]`));
    const list = { test: (line: string) => quotedKinds.every((kind) => kind.test(line)) };
    const allowed = new Set(["lib/payments/follow-ups/kinds.ts", "lib/acquirers/contract.ts"]);
    const found = ["app", "components", "lib"]
      .flatMap((top) => sources(path.join(ROOT, top)))
      .map((file) => path.relative(ROOT, file).split(path.sep).join("/"))
      // An acquirer's (or its sandbox's) own words for our kinds are a mapping, not a list of them.
      .filter((file) => !allowed.has(file) && !/^lib\/(sandboxes\/)?acquirers\/[^/]+\//.test(file))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, index) => (list.test(line) && !line.trim().startsWith("//") && !line.trim().startsWith("*") ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(found, `derive these from lib/payments/follow-ups/kinds.ts:\n${found.join("\n")}`).toEqual([]);
  });
});
