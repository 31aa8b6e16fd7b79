// The card number leaves its wrapper (CardDetails.revealPan) only where it leaves the service or is
// sealed: in an acquirer module building its request, in the cards kernel (the vault's encryption,
// the BIN facts, fingerprints, the test-card check) and in the 3-D Secure AReq to the 3DS Server.
// Everywhere else code passes the wrapped card along, so a log line or an error cannot carry it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "@/tests/helpers/source-files";
import { ACQUIRER_NAMES } from "@/lib/acquirers/names";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const sources = (dir: string) => sourceFiles(dir, (name) => /\.(ts|tsx)$/.test(name));

const ALLOWED = [...ACQUIRER_NAMES.map((name) => `lib/acquirers/${name}/`), "lib/acquirers/_template/", "lib/cards/", "lib/threeds/start-authentication.ts"];

describe("the card number", () => {
  it("is unwrapped only in the acquirer modules, the cards kernel and the AReq", () => {
    const found = ["app", "components", "lib"]
      .flatMap((top) => sources(path.join(ROOT, top)))
      .map((file) => path.relative(ROOT, file).split(path.sep).join("/"))
      .filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
      .filter((file) => /\.revealPan\(\)/.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(found, `pass the CardDetails on instead of its number:\n${found.join("\n")}`).toEqual([]);
  });
});
