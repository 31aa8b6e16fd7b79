// The rules an answer to a dispute obeys (lib/disputes/dispute-rules.ts) and the pollers' back-off
// (lib/routing/accounts/run-reporting-feed.ts), as pure functions.
import { describe, expect, it } from "vitest";
import { assertAnswerable, checkEvidenceFiles, cleanFileName } from "@/lib/disputes/dispute-rules";
import { reportingBackoffMs } from "@/lib/routing/accounts/run-reporting-feed";

const rules = { contentTypes: ["application/pdf", "image/png"], maxBytes: 100, maxFiles: 2, source: "test" };
const pdf = new Uint8Array([...Buffer.from("%PDF-1.7 x")]);

describe("answering a dispute", () => {
  const now = new Date("2026-11-29T23:30:00Z");
  it("is allowed on its due date and refused the day after, naming the date", () => {
    expect(() => assertAnswerable({ status: "open", dueOn: new Date("2026-11-29T00:00:00Z") }, now)).not.toThrow();
    expect(() => assertAnswerable({ status: "open", dueOn: new Date("2026-11-28T00:00:00Z") }, now)).toThrow("its due date 2026-11-28 has passed");
  });

  it("is refused once the dispute is no longer open, naming its status", () => {
    expect(() => assertAnswerable({ status: "under_review", dueOn: null }, now)).toThrow("it is under-review");
  });
});

describe("evidence files", () => {
  it("are taken within the rules, with their size and SHA-256", () => {
    const [file] = checkEvidenceFiles([{ fileName: "r.pdf", contentType: "application/pdf; charset=binary", bytes: pdf }], rules, "API", 0);
    expect(file).toMatchObject({ fileName: "r.pdf", contentType: "application/pdf", size: pdf.byteLength });
    expect(file!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("are refused over the count per dispute, counting those already sent", () => {
    expect(() => checkEvidenceFiles([{ fileName: "r.pdf", contentType: "application/pdf", bytes: pdf }], rules, "API", 2)).toThrow(
      "API takes at most 2 evidence files per dispute; it has 2 and 1 more were given",
    );
  });

  it("are refused when empty, when the bytes contradict the type, or when none is given", () => {
    expect(() => checkEvidenceFiles([{ fileName: "e.pdf", contentType: "application/pdf", bytes: new Uint8Array() }], rules, "API", 0)).toThrow("e.pdf: the file is empty");
    expect(() => checkEvidenceFiles([{ fileName: "p.png", contentType: "image/png", bytes: pdf }], rules, "API", 0)).toThrow("p.png: its content is not image/png");
    expect(() => checkEvidenceFiles([], rules, "API", 0)).toThrow("no file given");
  });

  it("keep a name without path parts or control characters", () => {
    expect(cleanFileName("../../etc/pass\u0000wd")).toBe("passwd");
    expect(cleanFileName("C:\\Users\\x\\receipt.pdf")).toBe("receipt.pdf");
    expect(cleanFileName("")).toBe("evidence");
  });
});

describe("the pollers' back-off", () => {
  it("waits 5 minutes after a failure, doubling, at most 6 hours", () => {
    expect([1, 2, 3, 4].map((failures) => reportingBackoffMs(failures) / 60_000)).toEqual([5, 10, 20, 40]);
    expect(reportingBackoffMs(30)).toBe(6 * 3600_000);
  });
});
