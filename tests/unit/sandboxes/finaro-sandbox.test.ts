// The strict Finaro sandbox answers what the public clients recorded (lib/acquirers/finaro/fixtures/
// *.json, each naming its source), for requests built by hand from those references: among them the
// exact requests main's connector sent (a capture without g4, an authorization without c3, b2=3).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFinaroSandbox, FINARO_SANDBOX_PATH, finaroSandboxSignature } from "@/lib/sandboxes/acquirers/finaro";
import { FINARO_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/finaro/accounts";

const FIXTURES = path.resolve(import.meta.dirname, "../../../lib/acquirers/finaro/fixtures");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8"));

const { merchantId: M, signatureKey } = FINARO_SANDBOX_ACCOUNTS[0]!;
const yy = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, "0");
let counter = 0;
const a1 = () => `req${Date.now()}${counter++}`.slice(0, 32);

type Handler = (request: Request) => Promise<Response>;

async function post(
  handler: Handler,
  fields: Record<string, string>,
  { sign = true } = {},
): Promise<{ raw: string; fields: Record<string, string> }> {
  const body = sign ? { ...fields, K: finaroSandboxSignature(fields, signatureKey) } : fields;
  const response = await handler(
    new Request(`http://finaro.test${FINARO_SANDBOX_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    }),
  );
  expect(response.status).toBe(200);
  const raw = await response.text();
  return { raw, fields: Object.fromEntries(new URLSearchParams(raw)) };
}

/** An authorization as [AM-CR] forms it, on the public test card that approves. */
const authorization = (extra: Record<string, string> = {}) => ({
  M,
  O: "2",
  a1: a1(),
  a4: "100",
  a5: "EUR",
  b1: "4018810000100036",
  b2: "1",
  b3: "12",
  b4: yy,
  b5: "123",
  c1: "Longbob Longsen",
  c3: "unspecified@example.com",
  d1: "127.0.0.1",
  ...extra,
});

describe("strict finaro sandbox", () => {
  it("signs as the reference's test vectors do (values sorted by key, cleaned, plus the key, SHA-256)", () => {
    for (const vector of fixture("signature-vectors").request.vectors) {
      expect(finaroSandboxSignature(vector.params, fixture("signature-vectors").request.signatureKey)).toBe(vector.sha256);
    }
  });

  it("approves the public test card, answering in the recorded shape (lower-case z keys, M O T V, a K that verifies)", async () => {
    const { handler } = createFinaroSandbox();
    const { raw, fields } = await post(handler, authorization());
    expect(fields).toMatchObject({ M, O: "2", V: "413", z2: "0", z3: "Transaction has been executed successfully.", z6: "00" });
    expect(fields.z4).toMatch(/^\d{6}$/);
    expect(fields.z50).toMatch(/^\d{15}$/);
    expect(fields.T).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(fields).not.toHaveProperty("PAR");
    const { K, ...signed } = fields;
    expect(K).toBe(finaroSandboxSignature(signed, signatureKey));
    expect(Object.keys(fields)).toEqual(Object.keys(Object.fromEntries(new URLSearchParams(raw))));
  });

  it("declines the public decline card as recorded (z2=05, z6=57)", async () => {
    const { handler } = createFinaroSandbox();
    const { fields } = await post(handler, authorization({ b1: "4176661000001111", b5: "681" }));
    expect(fields).toMatchObject({ z2: "05", z3: "Transaction has been declined.", z6: "57" });
  });

  it("cannot identify any other card: the recorded -9 without K, M or O", async () => {
    const { handler } = createFinaroSandbox();
    const { fields } = await post(handler, authorization({ b1: "4111111111111111" }));
    expect(Object.keys(fields).sort()).toEqual(Object.keys(fixture("authorize-error-card-not-identified").response.fields).sort());
    expect(fields).toMatchObject({ z2: "-9", z3: "Card cannot be identified" });
  });

  it("refuses main's authorization (no c3) and main's American Express b2=3 as malformed", async () => {
    const { handler } = createFinaroSandbox();
    const { c3: _c3, ...withoutEmail } = authorization();
    expect((await post(handler, withoutEmail)).fields).toMatchObject({
      z1: "1A-1",
      z2: "-9",
      z3: "2. At least one of input parameters is malformed.: Parameter [c3] cannot be empty.",
    });
    expect((await post(handler, authorization({ b1: "378282246310005", b2: "3", b5: "1234" }))).fields).toMatchObject({
      z2: "-9",
      z3: "2. At least one of input parameters is malformed.: Parameter [b2] is invalid.",
    });
  });

  it("answers main's capture, refund and void (no g4) exactly as recorded: '-9 … Parameter [g4] cannot be empty.'", async () => {
    const { handler } = createFinaroSandbox();
    const approved = (await post(handler, authorization())).fields;
    const recorded = fixture("capture-error-g4-missing").response.fields;
    for (const [O, amount] of [
      ["3", "100"],
      ["5", "100"],
      ["4", "100"],
    ] as const) {
      const { fields } = await post(handler, {
        M,
        O,
        a1: a1(),
        a4: amount,
        a5: "EUR",
        g2: approved.z1!,
        g3: approved.z4!,
        d1: "127.0.0.1",
      });
      expect(fields, `O=${O}`).toMatchObject({ M, O, z1: recorded.z1, z2: recorded.z2, z3: recorded.z3, a4: amount, b1: recorded.b1 });
      expect(fields.K).toBe(
        finaroSandboxSignature(Object.fromEntries(Object.entries(fields).filter(([key]) => key !== "K")), signatureKey),
      );
    }
  });

  it("captures with g2/g3/g4 and answers as recorded; a g4 that is not the authorization's a1 is 'not found'", async () => {
    const { handler } = createFinaroSandbox();
    const request = authorization();
    const approved = (await post(handler, request)).fields;
    const reference = { g2: approved.z1!, g3: approved.z4!, g4: request.a1, d1: "127.0.0.1" };
    const wrong = await post(handler, { M, O: "3", a1: a1(), a4: "50", a5: "EUR", ...reference, g4: "1" });
    expect(wrong.fields.z3).toBe(
      `2. At least one of input parameters is malformed.: Successful referred transaction [1/${approved.z1}] has not been found.`,
    );
    const captured = (await post(handler, { M, O: "3", a1: a1(), a4: "50", a5: "EUR", ...reference })).fields;
    const shape = fixture("capture-approved").response.fields;
    expect(captured).toMatchObject({ z2: "0", z4: approved.z4, g2: approved.z1, g3: approved.z4, g4: request.a1 });
    for (const key of Object.keys(shape)) expect(captured, key).toHaveProperty(key);
  });

  it("refunds name a capture: a refund that names the authorization is 'not found', one beyond its capture is malformed", async () => {
    const { handler, ledger } = createFinaroSandbox();
    const request = authorization({ a4: "1000" });
    const approved = (await post(handler, request)).fields;
    const captureA1 = a1();
    const captured = (
      await post(handler, {
        M,
        O: "3",
        a1: captureA1,
        a4: "600",
        a5: "EUR",
        g2: approved.z1!,
        g3: approved.z4!,
        g4: request.a1,
        d1: "127.0.0.1",
      })
    ).fields;
    const namingAuthorization = await post(handler, {
      M,
      O: "5",
      a1: a1(),
      a4: "100",
      g2: approved.z1!,
      g3: approved.z4!,
      g4: request.a1,
      d1: "127.0.0.1",
    });
    expect(namingAuthorization.fields.z2).toBe("-9");
    const refund = (amount: string) =>
      post(handler, { M, O: "5", a1: a1(), a4: amount, g2: captured.z1!, g3: captured.z4!, g4: captureA1, d1: "127.0.0.1" });
    expect((await refund("601")).fields.z3).toBe("2. At least one of input parameters is malformed.: Parameter [a4] is invalid.");
    expect((await refund("600")).fields.z2).toBe("0");
    expect(ledger.byId(approved.z1!)).toMatchObject({ capturedAmount: 600, refundedAmount: 600 });
  });

  it("fails a repeated a1, a bad K (-8), a g6 that is a z13, a malformed i8; serves nothing but POST to the gateway path", async () => {
    const { handler } = createFinaroSandbox();
    const request = authorization();
    await post(handler, request);
    expect((await post(handler, request)).fields).toMatchObject({
      z2: "-9",
      z3: "2. At least one of input parameters is malformed.: Parameter [a1] is not unique.",
    });
    const badK = await post(handler, { ...authorization(), K: "0".repeat(64) }, { sign: false });
    expect(badK.fields).toMatchObject({ z2: "-8", z3: "Package Signature is malformed" });
    expect(badK.fields).not.toHaveProperty("K");
    const { b5: _b5, ...withoutCvv } = authorization({ a9: "2", g6: "606944188282" });
    const z13 = await post(handler, withoutCvv);
    expect(z13.fields).toMatchObject({ z2: "-9", z3: "2. At least one of input parameters is malformed.: Parameter g6 is invalid" });
    const i8 = await post(
      handler,
      authorization({ i8: "02:jJ81HADVRtXfCBATEp01CJUAAAA=:this is not a valid xid, it will be rejected", "3ds_version": "1.0" }),
    );
    expect(i8.fields).toMatchObject({ z2: "-9", z3: "2. At least one of input parameters is malformed.: Parameter i8 is invalid" });
    expect((await post(handler, { M, O: "101", a1: a1(), g4: request.a1 })).fields.z2).toBe("-9");
    expect((await handler(new Request(`http://finaro.test${FINARO_SANDBOX_PATH}`))).status).toBe(404);
    expect((await handler(new Request("http://finaro.test/sandbox/card-updates", { method: "POST", body: "{}" }))).status).toBe(404);
  });

  it("with its extensions: the retrieval O=101 by the original a1, and -100 for an a1 it never received", async () => {
    const { handler } = createFinaroSandbox({ extensions: true });
    const request = authorization();
    const approved = (await post(handler, request)).fields;
    const found = (await post(handler, { M, O: "101", a1: a1(), d1: "127.0.0.1", g4: request.a1 })).fields;
    expect(found).toMatchObject({ O: "101", z1: approved.z1, z2: "0", z4: approved.z4 });
    expect((await post(handler, { M, O: "101", a1: a1(), d1: "127.0.0.1", g4: "neverSent" })).fields.z2).toBe("-100");
  });

  it("refuses a retrieval without the minimum fields the Credorax SDK sends for O=101 (M O a1 d1 g4): '-9 … Parameter [d1] cannot be empty.'", async () => {
    const { handler } = createFinaroSandbox({ extensions: true });
    const request = authorization();
    await post(handler, request);
    const withoutD1 = (await post(handler, { M, O: "101", a1: a1(), g4: request.a1 })).fields;
    expect(withoutD1).toMatchObject({ z2: "-9", z3: "2. At least one of input parameters is malformed.: Parameter [d1] cannot be empty." });
    const withoutG4 = (await post(handler, { M, O: "101", a1: a1(), d1: "127.0.0.1" })).fields;
    expect(withoutG4).toMatchObject({ z2: "-9", z3: "2. At least one of input parameters is malformed.: Parameter [g4] cannot be empty." });
    const badD1 = (await post(handler, { M, O: "101", a1: a1(), d1: "::1", g4: request.a1 })).fields;
    expect(badD1.z2).toBe("-9");
  });
});
