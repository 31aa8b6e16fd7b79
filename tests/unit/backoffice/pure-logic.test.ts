// Pure back-office logic: filter parsing, money input, cursors, CSV cells, key states, roles.
import { describe, expect, it } from "vitest";
import { filtersToSearchParams, parsePaymentFilters } from "@/lib/backoffice/payment-filters";
import { decodeCursor, encodeCursor } from "@/lib/backoffice/queries/list-payments";
import { csvCell } from "@/lib/backoffice/queries/export-payments-csv";
import { toMinorUnits } from "@/lib/backoffice/actions/operate-on-payment";
import { apiKeyState } from "@/lib/api-keys/list-api-keys";
import { roleCan } from "@/lib/auth/roles";
import { notificationUrlSchema } from "@/lib/backoffice/notification-url";

describe("payment filters", () => {
  it("reads amounts in major units into minor units and back", () => {
    const { filters, errors } = parsePaymentFilters({ minAmount: "12.5", maxAmount: "100", currency: "dkk", q: "  abc  " });
    expect(errors).toEqual({});
    expect(filters).toEqual({ minAmount: 1250n, maxAmount: 10000n, currency: "DKK", q: "abc" });
    expect(filtersToSearchParams(filters).toString()).toBe("q=abc&minAmount=12.50&maxAmount=100&currency=DKK");
  });

  it("drops each invalid field with its own message and keeps the rest", () => {
    const { filters, errors } = parsePaymentFilters({ scheme: "diners", to: "2026-13", processor: "clearhaus", status: ["CAPTURED", "VOIDED"] });
    // The state filter takes the displayed states; an older link's capitals read as the same state.
    expect(filters).toEqual({ processor: "clearhaus", status: "captured" });
    expect(errors.scheme).toBeDefined();
    expect(errors.to).toMatch(/YYYY-MM-DD/);
  });
});

describe("keyset cursors", () => {
  it("round-trip and refuse anything forged", () => {
    const cursor = { createdAt: new Date("2026-11-21T08:00:00.123Z"), id: "abc123" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(Buffer.from("not-a-date|abc").toString("base64url"))).toBeUndefined();
    expect(decodeCursor(Buffer.from("2026-11-21T08:00:00Z|a'; drop").toString("base64url"))).toBeUndefined();
    expect(decodeCursor(undefined)).toBeUndefined();
  });
});

describe("toMinorUnits", () => {
  it("uses the currency's exponent and refuses extra decimals", () => {
    expect(toMinorUnits("12.5", "DKK")).toBe(1250n);
    expect(toMinorUnits("12", "DKK")).toBe(1200n);
    expect(toMinorUnits("1500", "JPY")).toBe(1500n);
    expect(toMinorUnits("1.234", "KWD")).toBe(1234n);
    expect(() => toMinorUnits("1.5", "JPY")).toThrow(/0 decimals/);
    expect(() => toMinorUnits("1.005", "EUR")).toThrow(/2 decimals/);
  });
});

describe("csvCell", () => {
  it("defuses spreadsheet formulas in text but not in numbers", () => {
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(-5n)).toBe("-5");
  });
});

describe("apiKeyState", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("tells active, expiring, expired and revoked keys apart", () => {
    expect(apiKeyState({ revokedAt: null, expiresAt: null }, now)).toBe("active");
    expect(apiKeyState({ revokedAt: null, expiresAt: new Date("2026-11-21T13:00:00Z") }, now)).toBe("expiring");
    expect(apiKeyState({ revokedAt: null, expiresAt: new Date("2026-11-21T11:00:00Z") }, now)).toBe("expired");
    expect(apiKeyState({ revokedAt: now, expiresAt: new Date("2026-11-21T13:00:00Z") }, now)).toBe("revoked");
  });
});

describe("roles", () => {
  it("give owners everything, developers all but the team, viewers nothing", () => {
    expect(["keys:write", "settings:write", "payments:write", "team:write"].every((permission) => roleCan("OWNER", permission as never))).toBe(true);
    expect(roleCan("DEVELOPER", "keys:write")).toBe(true);
    expect(roleCan("DEVELOPER", "team:write")).toBe(false);
    expect(["keys:write", "settings:write", "payments:write", "team:write"].some((permission) => roleCan("VIEWER", permission as never))).toBe(false);
  });
});

describe("notification URL", () => {
  it("allows http only outside production", () => {
    expect(notificationUrlSchema({ allowHttp: true }).parse("http://127.0.0.1:9/x")).toBe("http://127.0.0.1:9/x");
    expect(notificationUrlSchema({ allowHttp: false }).safeParse("http://shop.example/x").success).toBe(false);
    expect(notificationUrlSchema({ allowHttp: false }).parse("")).toBeNull();
  });
});
