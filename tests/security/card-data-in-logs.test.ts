// Security issue 10, item 11: card data in logs. A card-update feed (it carries new card numbers)
// whose JSON is broken right next to a PAN: V8's SyntaxError quotes the text around the fault, and
// that message used to travel through the poll result into the log line. Every connector's feed
// and the poll are fed such a body here, with the console captured; the PAN's digits must appear
// nowhere. And one masked form of a card number for the whole service.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { cardFacts } from "@/lib/cards/card-facts";
import { describeErrorForLog, redactCardNumbers } from "@/lib/cards/redact-card-numbers";
import { truncateCardNumber } from "@/lib/cards/truncate-card-number";
import { completionNotificationBody } from "@/lib/notifications/bodies";
import { captureLogs } from "@/lib/observability/logger";
import type { ProcessorConnector } from "@/lib/acquirers/contract";
import type { AcquirerName } from "@/lib/acquirers/names";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const PAN = "4539578763621486";
const AMEX = "378282246310005";

/**
 * A body that breaks JSON right after the PAN: V8's "Unexpected token" message quotes the 10
 * characters on each side of the fault, here the PAN's hidden middle digits and its end.
 */
const BROKEN_FEED = `{"updates":[{"id":"u1","kind":"pan","b1":[${PAN},u]}]}`;

let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(BROKEN_FEED);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  vi.restoreAllMocks();
});

function connector(name: AcquirerName): ProcessorConnector {
  return connectorAt(`${baseUrl}/${name}`, sandboxCredentials(name));
}

/** Everything written to the console and through the service's logger (at every level) while `run` runs. */
async function capturedConsole(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(" "));
    });
  }
  const logged = captureLogs({ level: "debug" });
  try {
    await run();
  } finally {
    logged.stop();
  }
  return [...lines, ...logged.lines()].join("\n");
}

/** Any 6 consecutive digits of the PAN past its BIN (the BIN and the last 4 alone may be shown), grouped or not. */
function holdsPanDigits(text: string): boolean {
  const digitsOnly = text.replace(/[ -]/g, "");
  for (let start = 1; start + 6 <= PAN.length; start++) if (digitsOnly.includes(PAN.slice(start, start + 6))) return true;
  return false;
}

describe("item 11: card data in logs", () => {
  it("item 11: the fixture is a real leak: JSON.parse's own message quotes the PAN next to the fault", () => {
    let message = "";
    try {
      JSON.parse(BROKEN_FEED);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(holdsPanDigits(message)).toBe(true);
  });

  // Bambora North America has no account-updater feed (its connector refuses the call without one).
  for (const name of ["finaro", "clearhaus"] as const) {
    it(`item 11: a ${name} card-update feed with a PAN next to a syntax error fails with a fixed text that holds no card digits`, async () => {
      let failure: unknown;
      const logged = await capturedConsole(async () => {
        failure = await connector(name)
          .cardUpdates({ since: new Date(0) })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        // What the poll logs of a failed feed (lib/payments/poll-card-updates.ts, then the job's warn line).
        console.warn(`[life cycle] ${name} card-update feed: ${describeErrorForLog(failure)}`);
      });
      expect(failure).toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message).toBe(`${name} card-update feed: the body is not JSON`);
      expect(holdsPanDigits(message)).toBe(false);
      expect(holdsPanDigits(String((failure as Error).stack))).toBe(false);
      expect(holdsPanDigits(logged)).toBe(false);
    });
  }

  it("item 11: pollCardUpdates reports a broken feed with the fixed text, never the parser's message", async () => {
    const { registerSandboxUrl } = await import("@/lib/acquirers/registry");
    const { pollCardUpdates } = await import("@/lib/payments/poll-card-updates");
    const { createMerchant } = await import("@/lib/merchants/create-merchant");
    const { addSandboxAccounts } = await import("@/tests/helpers/acquirer-accounts");
    const { db } = await import("@/lib/db");
    const { merchant } = await createMerchant({ name: "Feed Shop" });
    await addSandboxAccounts(merchant.id);
    const { id: accountId } = await db().acquirerAccount.findFirstOrThrow({ where: { merchantId: merchant.id, processor: "finaro" } });
    registerSandboxUrl("finaro", `${baseUrl}/finaro`, { path: "/" });
    let error: string | undefined;
    const logged = await capturedConsole(async () => {
      const result = await pollCardUpdates({ accountId, since: new Date(0) });
      error = result.error;
      if (result.error) console.warn(`[life cycle] ${result.processor} card-update feed: ${result.error}`);
    });
    registerSandboxUrl("finaro", undefined);
    expect(error).toBe("finaro card-update feed: the body is not JSON");
    expect(holdsPanDigits(logged)).toBe(false);
  });

  it("item 11: an unexpected error on its way to a log has card-number-like digits redacted, grouped or not", () => {
    for (const text of [PAN, "4539 5787 6362 1486", "4539-5787-6362-1486", `pan=${AMEX};`]) {
      const redacted = redactCardNumbers(`failed near "${text}"`);
      expect(redacted).not.toMatch(/\d{8}/);
      expect(holdsPanDigits(redacted)).toBe(false);
    }
    expect(describeErrorForLog(new SyntaxError(`Unexpected token } in JSON: "b1":"${PAN}",}`))).toBe(
      'SyntaxError: Unexpected token } in JSON: "b1":"[redacted digits]",}',
    );
  });

  it("item 11: one masked form: API answers, notifications and CardDetails agree on every card length", () => {
    for (const pan of [PAN, AMEX, "4111111111111", "6011000990139424123"]) {
      const card = new CardDetails({ pan, expMonth: 12, expYear: 2099 });
      const fromFacts = cardFacts({ card }).tcardnumber;
      expect(fromFacts).toBe(truncateCardNumber(pan));
      expect(String(card)).toContain(fromFacts);
      expect(fromFacts).toMatch(/^\d{6}x{4,}\d{4}$/);
      expect(fromFacts.slice(6, -4)).toBe("x".repeat(Math.max(4, pan.length - 10)));
    }
    // A stored card keeps its BIN and last 4 only: the notification shows the same form as the API for 16 digits.
    const body = completionNotificationBody({
      sessionId: "s",
      paymentId: "p",
      merchantPaymentId: null,
      newMerchantPaymentId: null,
      status: "approved",
      responseCode: "00",
      authorizationCode: "A",
      processor: "finaro",
      card: { bin: PAN.slice(0, 6), last4: PAN.slice(-4) } as Parameters<typeof completionNotificationBody>[0]["card"],
      eci: null,
      merchantData: null,
    });
    expect(body.tcardnumber).toBe(truncateCardNumber(PAN));
  });
});
