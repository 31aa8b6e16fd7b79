// Decline classes (decision 0190): every code each acquirer's reference documents is in its module's
// table with a class and a source; recorded and documented answers of every class read as that class
// through the connectors' own transformers; a code with no public meaning is declined-soft and says
// so; docs/acquirers.md shows each table as the module holds it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACQUIRERS } from "@/lib/acquirers";
import { DECLINE_CLASSES, type DeclineClass, type ProcessorResult } from "@/lib/acquirers/contract";
import { ACQUIRER_NAMES, type AcquirerName } from "@/lib/acquirers/names";
import { CLEARHAUS_STATUS_CODES, fromClearhausAnswer } from "@/lib/acquirers/clearhaus/transformers";
import { fromFinaroResponse, parseFinaroBody } from "@/lib/acquirers/finaro/transformers";
import { BAMBORA_GATEWAY_CODES, bamboraErrorResponse, bamboraPaymentResponse, fromBamboraError, fromBamboraPayment } from "@/lib/acquirers/bambora/transformers";
import { declineClassOf, routingAfter, routingStoppedReason } from "@/lib/routing/decline-class";
import { isoDeclineClass } from "@/lib/acquirers/plumbing/iso-decline-classes";

const ROOT = path.resolve(import.meta.dirname, "../../..");

interface Fixture {
  response: { httpStatus?: number | null; body?: unknown; raw?: string; fields?: Record<string, string> };
  declineClass?: DeclineClass;
}

function fixtures(name: AcquirerName): Array<[string, Fixture]> {
  const folder = path.join(ROOT, "lib/acquirers", name, "fixtures");
  return readdirSync(folder)
    .filter((file) => file.endsWith(".json"))
    .map((file) => [file, JSON.parse(readFileSync(path.join(folder, file), "utf8")) as Fixture]);
}

/** The answer of a fixture as its connector's transformer reads it. */
const READ: Record<AcquirerName, (fixture: Fixture) => ProcessorResult> = {
  clearhaus: (fixture) => fromClearhausAnswer(JSON.stringify(fixture.response.body))!,
  finaro: (fixture) => fromFinaroResponse(parseFinaroBody(fixture.response.raw ?? new URLSearchParams(fixture.response.fields).toString())!),
  bambora: (fixture) => {
    const body = fixture.response.body as Record<string, unknown>;
    return "approved" in body ? fromBamboraPayment(bamboraPaymentResponse.parse(body)) : fromBamboraError(bamboraErrorResponse.parse(body));
  },
};

/** Classes an acquirer's public reference has no code for (said so in docs/acquirers.md). */
const NONE_PUBLISHED: Partial<Record<AcquirerName, readonly DeclineClass[]>> = { bambora: ["stop-recurring"] };

describe("each acquirer module's table of its codes", () => {
  it.each(ACQUIRER_NAMES)("%s: unique codes, a class, a meaning and a source each", (name) => {
    const table = ACQUIRERS[name].declineCodes;
    expect(table.length).toBeGreaterThan(10);
    expect(new Set(table.map((row) => row.code)).size).toBe(table.length);
    for (const row of table) {
      expect(DECLINE_CLASSES, row.code).toContain(row.class);
      expect(row.meaning.length, row.code).toBeGreaterThan(2);
      expect(row.source, row.code).toMatch(/^\[[A-Z-]+\]/);
    }
    const classes = new Set(table.map((row) => row.class));
    for (const cls of DECLINE_CLASSES) if (!NONE_PUBLISHED[name]?.includes(cls)) expect(classes, `${name} ${cls}`).toContain(cls);
  });

  it("every status code Clearhaus documents, and every gateway code the Bambora connector reads, is classed", () => {
    const clearhaus = new Set(ACQUIRERS.clearhaus.declineCodes.map((row) => row.code));
    for (const code of CLEARHAUS_STATUS_CODES) expect(clearhaus, String(code)).toContain(String(code));
    const bambora = new Set(ACQUIRERS.bambora.declineCodes.map((row) => row.code));
    for (const code of BAMBORA_GATEWAY_CODES) expect(bambora, String(code)).toContain(String(code));
  });

  it("Finaro's z6 list is ActiveMerchant's whole RESPONSE_MESSAGES (96 codes) with the ISO classes", () => {
    const z6 = ACQUIRERS.finaro.declineCodes.filter((row) => row.code.startsWith("Z6="));
    expect(z6).toHaveLength(96);
    for (const row of z6) expect(row.class, row.code).toBe(isoDeclineClass(row.code.slice(3)).class);
  });

  it("the schemes' rules: lost, stolen, invalid number and expired are hard; stop orders stop; 1A asks for authentication", () => {
    const classOf = (code: string) => isoDeclineClass(code).class;
    for (const code of ["04", "07", "12", "14", "15", "41", "43", "46", "54", "57"]) expect(classOf(code), code).toBe("declined-hard");
    for (const code of ["R0", "R1", "R3"]) expect(classOf(code), code).toBe("stop-recurring");
    for (const code of ["05", "51", "59", "61", "62", "91", "96", "N7"]) expect(classOf(code), code).toBe("declined-soft");
    expect(classOf("1A")).toBe("authentication-required");
    expect(classOf("68")).toBe("technical");
    // Not in any category list: Visa's category 4, a re-attempt is allowed.
    expect(classOf("Q7")).toBe("declined-soft");
  });
});

describe("recorded and documented answers of each class", () => {
  it.each(ACQUIRER_NAMES)("%s: every fixture that names a class reads as it, and every class has one", (name) => {
    const classed = fixtures(name).filter(([, fixture]) => fixture.declineClass);
    const seen = new Set<DeclineClass>();
    for (const [file, fixture] of classed) {
      const result = READ[name](fixture);
      expect(declineClassOf(result), file).toBe(fixture.declineClass);
      expect(result.declineClass, file).toBe(fixture.declineClass);
      seen.add(fixture.declineClass!);
    }
    const required = DECLINE_CLASSES.filter((cls) => !NONE_PUBLISHED[name]?.includes(cls));
    for (const cls of required) expect(seen, `${name}: a fixture of class ${cls}`).toContain(cls);
  });
});

describe("codes without a public meaning", () => {
  it("clearhaus: declined-soft, and the message says the code is not in Clearhaus' table; an unknown 5xxxx is technical", () => {
    const result = fromClearhausAnswer(JSON.stringify({ id: "x", status: { code: 40999, message: "new" } }))!;
    expect(result.declineClass).toBe("declined-soft");
    expect(result.message).toBe("new; status 40999 is not in Clearhaus' code table: declined-soft");
    expect(fromClearhausAnswer(JSON.stringify({ id: "x", status: { code: 50001 } }))!.declineClass).toBe("technical");
  });

  it("finaro: an unlisted z6 is declined-soft and says so; z2 decides when z6 is absent", () => {
    const unknown = fromFinaroResponse(parseFinaroBody("z1=1&z2=05&z3=Transaction+has+been+declined.&z6=Q9")!);
    expect(unknown.declineClass).toBe("declined-soft");
    expect(unknown.message).toContain("z2 05 z6 Q9 is not in Finaro's code lists: declined-soft");
    expect(fromFinaroResponse(parseFinaroBody("z1=1&z2=-13&z3=3D")!).declineClass).toBe("authentication-required");
    expect(fromFinaroResponse(parseFinaroBody("z1=1&z2=-7&z3=broken")!).declineClass).toBe("technical");
    expect(fromFinaroResponse(parseFinaroBody("z1=1&z2=9&z3=luhn")!).declineClass).toBe("declined-hard");
  });

  it("bambora: an unlisted id of a processed answer is declined-soft and says so; a technical category stays technical", () => {
    const processed = fromBamboraError(bamboraErrorResponse.parse({ code: 9999, category: 1, message: "DECLINE" }));
    expect(processed.declineClass).toBe("declined-soft");
    expect(processed.message).toBe("DECLINE; message id 9999 is not in Bambora's gateway table: declined-soft");
    expect(fromBamboraError(bamboraErrorResponse.parse({ code: 9998, category: 4, message: "x" })).declineClass).toBe("technical");
  });
});

describe("the routing's reading", () => {
  it("an answer without a code: approved, technical when nothing or nothing known was decided, else declined-soft", () => {
    expect(declineClassOf({ status: "approved" })).toBe("approved");
    expect(declineClassOf({ status: "failed", failure: "indeterminate" })).toBe("technical");
    expect(declineClassOf({ status: "failed", failure: "retryable" })).toBe("technical");
    expect(declineClassOf({ status: "declined", failure: "declined" })).toBe("declined-soft");
    expect(declineClassOf({ status: "declined", failure: "declined", declineClass: "approved" })).toBe("declined-soft");
  });

  it("stops at approved, declined-hard and stop-recurring; goes on after the others", () => {
    expect(DECLINE_CLASSES.filter((cls) => routingAfter(cls) === "stop")).toEqual(["approved", "declined-hard", "stop-recurring"]);
  });

  it("says why the routing stopped and what was not tried", () => {
    expect(
      routingStoppedReason({ processor: "finaro", responsecode: "54", acquirerCode: "Z2=05 Z6=54", declineClass: "declined-hard", untried: ["clearhaus"] }),
    ).toBe(
      "routing stopped: finaro declined for good (declined-hard, 54, finaro Z2=05 Z6=54); the card schemes forbid re-attempts of this decline, so clearhaus was not tried",
    );
  });
});

describe("docs/acquirers.md, Decline classes", () => {
  const docs = readFileSync(path.join(ROOT, "docs/acquirers.md"), "utf8");
  const section = docs.slice(docs.indexOf("## Decline classes"));

  it.each(ACQUIRER_NAMES)("%s: the table lists every code of the module with its class", (name) => {
    const start = section.indexOf(`### ${name}`);
    expect(start, `a "### ${name}" table in the Decline classes section`).toBeGreaterThan(0);
    const body = section.slice(start).split("\n").slice(1);
    const end = body.findIndex((line) => line.startsWith("## ") || line.startsWith("### "));
    const rows = body
      .slice(0, end === -1 ? undefined : end)
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    const documented = rows.map(([, code, cls]) => [code!.replace(/`/g, ""), cls]);
    expect(documented).toEqual(ACQUIRERS[name].declineCodes.map((row) => [row.code, row.class]));
  });
});
