// The one redaction configuration of the logger: keys that hold card data or secrets are censored
// wherever they sit in a logged object, and free text (messages, errors) has card numbers masked.
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs, log } from "@/lib/observability/logger";
import { withRequestContext } from "@/lib/observability/request-context";

const PAN = "4539578763621486";
let capture: ReturnType<typeof captureLogs> | undefined;

afterEach(() => capture?.stop());

describe("logger", () => {
  it("censors card data and secrets by key, at any of the first three levels", () => {
    capture = captureLogs({ level: "debug" });
    log("test").info(
      {
        pan: PAN,
        securitycode: "123",
        card: { pan: PAN, cvv: "123" },
        request: { headers: { authorization: "Basic key_live_abc", cookie: "session=1" }, body: { cardnumber: PAN } },
        apiKey: "key_live_abc",
        password: "hunter2",
        kept: "visible",
      },
      "a line",
    );
    const [line] = capture.lines();
    expect(line).not.toContain(PAN);
    expect(line).not.toContain("hunter2");
    expect(line).not.toContain("key_live_abc");
    expect(line).not.toContain('"123"');
    const entry = JSON.parse(line!) as Record<string, unknown>;
    expect(entry).toMatchObject({ pan: "[redacted]", securitycode: "[redacted]", card: "[redacted]", apiKey: "[redacted]", kept: "visible" });
    expect(entry.request).toEqual({ headers: { authorization: "[redacted]", cookie: "[redacted]" }, body: { cardnumber: "[redacted]" } });
  });

  it("masks card numbers in messages and in errors, grouped or not", () => {
    capture = captureLogs();
    log("test").warn(`parse failed near ${PAN}`);
    log("test").error({ err: new SyntaxError(`Unexpected token in "4539 5787 6362 1486"`) }, "failed");
    const text = capture.lines().join("\n");
    expect(text).not.toMatch(/4539\s?5787/);
    expect(text).toContain("[redacted digits]");
  });

  it("puts the request context on every line and honours the level", () => {
    capture = captureLogs({ level: "warn" });
    withRequestContext({ requestId: "r1", traceApi: "t1", merchantId: "m1" }, () => {
      log("test").info("dropped: below the level");
      log("test").warn("kept");
    });
    const entries = capture.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ msg: "kept", requestId: "r1", traceApi: "t1", merchantId: "m1", component: "test", level: 40 });
  });
});
