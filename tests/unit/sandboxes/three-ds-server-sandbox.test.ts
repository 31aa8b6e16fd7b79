// The strict 3DS Server sandbox (lib/sandboxes/threeds/three-ds-server.ts) against the 3dsecure.io
// reference: what today's main sends is refused, a request built as the reference asks is accepted for
// every test card, and /postauth behaves as postauth.rst documents (no invented "409 still pending").
import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import {
  createThreeDsServerSandbox,
  NOT_ENROLLED_PAN,
  POSTAUTH_CACHE_TTL_MS,
  PREAUTH_TRANS_ID_TTL_MS,
  THREEDS_SERVER_CHALLENGE_CODE,
  threeDsServerTestCard,
} from "@/lib/sandboxes/threeds/three-ds-server";
import { challengeRequest, minimalAReq } from "@/tests/helpers/threeds-messages";

const ORIGIN = "http://3ds-server.test";
const NOTIFY = "https://pay.example/dynamic/s1/payments/p1/challenge-notify";
const METHOD_NOTIFY = "https://pay.example/dynamic/s1/payments/p1/method-notify";

type Sandbox = ReturnType<typeof createThreeDsServerSandbox>;

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function fromB64url(text: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Record<string, unknown>;
}

async function api(sandbox: Sandbox, path: string, body: unknown, apiKey = sandbox.apiKey) {
  const response = await sandbox.handler(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", APIKey: apiKey },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

async function form(sandbox: Sandbox, path: string, fields: Record<string, string>) {
  const response = await sandbox.handler(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  return { status: response.status, html: await response.text() };
}

/** The hidden fields of the form a sandbox page auto-posts, and where it posts them. */
function autoPosted(html: string): { action: string; fields: Record<string, string> } | undefined {
  const action = /<form id="f" method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return undefined;
  const fields: Record<string, string> = {};
  for (const [, name = "", value = ""] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[name] = value;
  return { action: action.replace(/&#38;/g, "&"), fields };
}

/** The AReq today's main sends (lib/threeds/start-authentication.ts before issue 25): its own id, 2.2.0, no browser data. */
function mainAReq(pan: string) {
  return {
    ...minimalAReq(pan, NOTIFY),
    acquirerBIN: "438309",
    acquirerMerchantID: "00002000000",
    mcc: "5411",
    merchantCountryCode: "208",
    merchantName: "Test merchant",
  };
}

/** A browser AReq with every field areq_220 requires, as examples.rst's browser example has them. */
function fullAReq(pan: string, threeDSServerTransID: string, threeDSCompInd: "Y" | "N" | "U", messageVersion = "2.2.0") {
  return {
    ...mainAReq(pan),
    threeDSServerTransID,
    messageVersion,
    threeDSCompInd,
    threeDSRequestorURL: "https://pay.example",
    threeDSRequestorAuthenticationInd: "01",
    purchaseDate: "20261126221500",
    transType: "01",
    browserAcceptHeader: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    browserUserAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0",
    browserIP: "192.0.2.10",
    browserLanguage: "da-DK",
    browserJavascriptEnabled: true,
    browserJavaEnabled: false,
    browserColorDepth: "24",
    browserScreenHeight: "1080",
    browserScreenWidth: "1920",
    browserTZ: "-60",
    cardholderName: "Jens Hansen",
    email: "jens@example.com",
  };
}

/** /preauth, then the 3DS Method when there is one (as 3dsmethod.rst), returning what /auth needs. */
async function preauthAndMethod(sandbox: Sandbox, pan: string) {
  const crd = await api(sandbox, "/preauth", { acctNumber: pan });
  expect(crd.status).toBe(200);
  expect(crd.json).toMatchObject({ messageType: "CRD" });
  const transId = crd.json!.threeDSServerTransID as string;
  const methodUrl = crd.json!.threeDSMethodURL as string | undefined;
  let compInd: "Y" | "N" | "U" = "U";
  if (methodUrl) {
    const methodPage = await form(sandbox, new URL(methodUrl).pathname, {
      threeDSMethodData: b64url({ threeDSServerTransID: transId, threeDSMethodNotificationURL: METHOD_NOTIFY }),
    });
    expect(methodPage.status).toBe(200);
    const posted = autoPosted(methodPage.html);
    if (posted) {
      expect(posted.action).toBe(METHOD_NOTIFY);
      expect(fromB64url(posted.fields.threeDSMethodData ?? "")).toEqual({ threeDSServerTransID: transId });
      compInd = "Y";
    } else compInd = "N"; // no answer within 10 s
  }
  return { transId, compInd, versions: (crd.json!.acsProtocolVersions as { version: string }[]).map((entry) => entry.version) };
}

describe("strict 3DS Server sandbox (3dsecure.io reference)", () => {
  it("refuses the AReq today's main sends: no /preauth, no 3DS Method, browser and requestor fields missing (Erro 201)", async () => {
    const sandbox = createThreeDsServerSandbox();
    const answer = await api(sandbox, "/auth", mainAReq("4000100511112003"));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "201", errorComponent: "S", errorMessageType: "AReq" });
    const missing = String(answer.json!.errorDetail).split(",");
    for (const field of [
      "threeDSCompInd",
      "threeDSRequestorURL",
      "threeDSRequestorAuthenticationInd",
      "purchaseDate",
      "transType",
      "browserAcceptHeader",
      "browserUserAgent",
      "browserLanguage",
      "browserJavascriptEnabled",
    ])
      expect(missing).toContain(field);
  });

  it("refuses a complete AReq whose threeDSServerTransID did not come from /preauth", async () => {
    const sandbox = createThreeDsServerSandbox();
    const answer = await api(sandbox, "/auth", fullAReq("4000100511112003", randomUUID(), "U"));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "203", errorDescription: "Unknown threeDSServerTransID" });
  });

  it("refuses main's /postauth convention: an unfinished challenge is Erro 305 'No RReq has been received', never a 409", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511112072";
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    expect((await api(sandbox, "/auth", fullAReq(pan, transId, compInd))).json).toMatchObject({ transStatus: "C" });
    const pending = await api(sandbox, "/postauth", { threeDSServerTransID: transId });
    expect(pending.status).not.toBe(409);
    expect(pending.json).toMatchObject({ messageType: "Erro", errorCode: "305", errorDescription: "No RReq has been received" });
    expect((await api(sandbox, "/postauth", { threeDSServerTransID: randomUUID() })).json).toMatchObject({
      errorCode: "203",
      errorDescription: "Unknown threeDSServerTransID",
    });
  });

  it.each([
    ["frictionless Y", "4000100511112003", { transStatus: "Y", eci: "05" }],
    ["frictionless Y (Mastercard)", "5100100511112003", { transStatus: "Y", eci: "02" }],
    ["attempted A", "4000100511112023", { transStatus: "A", eci: "06" }],
    ["not authenticated N", "4000100511112013", { transStatus: "N", transStatusReason: "01" }],
    ["rejected R", "4000100511112033", { transStatus: "R", transStatusReason: "11" }],
    ["unavailable U", "4000100511112053", { transStatus: "U", transStatusReason: "08" }],
    ["informational I", "4000100511112043", { transStatus: "I" }],
    ["no 3DS Method (threeDSCompInd U)", "4000100511112103", { transStatus: "Y" }],
    ["3DS Method that never answers (threeDSCompInd N)", "4000100511112203", { transStatus: "Y" }],
  ])("accepts a reference-conformant browser AReq: %s", async (_name, pan, expected) => {
    const sandbox = createThreeDsServerSandbox();
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    const answer = await api(sandbox, "/auth", fullAReq(pan, transId, compInd));
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ messageType: "ARes", threeDSServerTransID: transId, ...expected });
    if (expected.transStatus === "Y" || expected.transStatus === "A") expect(answer.json!.authenticationValue).toEqual(expect.any(String));
    else expect(answer.json!.authenticationValue).toBeUndefined();
  });

  it.each([
    ["passes by itself", "4000100511112070", "complete", "Y"],
    ["fails by itself", "4000100511112071", "complete", "N"],
    ["manual, completed with the code", "4000100511112072", "complete", "Y"],
    ["manual, failed", "4000100511112072", "fail", "N"],
    ["manual, cancelled", "4000100511112072", "cancel", "N"],
  ])("challenge C %s: CRes to notificationURL, RReq from /postauth", async (_name, pan, action, status) => {
    const sandbox = createThreeDsServerSandbox();
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    const ares = (await api(sandbox, "/auth", fullAReq(pan, transId, compInd))).json!;
    expect(ares).toMatchObject({ transStatus: "C", acsURL: `${ORIGIN}/acs/challenge` });
    const creq = b64url(challengeRequest({ threeDSServerTransID: transId, acsTransID: ares.acsTransID }));
    let pageHtml = (await form(sandbox, "/acs/challenge", { creq, threeDSSessionData: "session-1" })).html;
    if (pan.endsWith("2072")) {
      expect(pageHtml).toContain("Confirm your payment");
      pageHtml = (
        await form(sandbox, "/acs/challenge/submit", {
          acsTransID: String(ares.acsTransID),
          threeDSSessionData: "session-1",
          action,
          code: THREEDS_SERVER_CHALLENGE_CODE,
        })
      ).html;
    }
    const posted = autoPosted(pageHtml)!;
    expect(posted.action).toBe(NOTIFY);
    expect(posted.fields.threeDSSessionData).toBe("session-1");
    expect(fromB64url(posted.fields.cres ?? "")).toMatchObject({ messageType: "CRes", threeDSServerTransID: transId, transStatus: status });
    const rreq = await api(sandbox, "/postauth", { threeDSServerTransID: transId });
    expect(rreq.status).toBe(200);
    expect(rreq.json).toMatchObject({ messageType: "RReq", threeDSServerTransID: transId, transStatus: status });
    if (action === "cancel") expect(rreq.json).toMatchObject({ challengeCancel: "01", transStatusReason: "10" });
  });

  it("answers a DS time-out card with the reference's Erro 405", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511112063";
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    const answer = await api(sandbox, "/auth", fullAReq(pan, transId, compInd));
    expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "405", errorDescription: "Unable to contact Directory Server" });
  });

  it("gives the not-enrolled card and unknown test cases Erro 305 on /preauth", async () => {
    const sandbox = createThreeDsServerSandbox();
    for (const pan of [NOT_ENROLLED_PAN, "4111111111111111"]) {
      const answer = await api(sandbox, "/preauth", { acctNumber: pan });
      expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "305", errorDescription: "Unknown BIN" });
      expect(answer.text).not.toContain(pan.slice(0, 6));
    }
    expect(threeDsServerTestCard("4111111111111111")).toBeUndefined();
  });

  it("refuses a messageVersion the card's ACS does not support (Erro 102)", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511111003"; // 1xxx: 2.1.0 only
    const { transId, compInd, versions } = await preauthAndMethod(sandbox, pan);
    expect(versions).toEqual(["2.1.0"]);
    expect((await api(sandbox, "/auth", fullAReq(pan, transId, compInd, "2.2.0"))).json).toMatchObject({ errorCode: "102" });
  });

  it("refuses threeDSCompInd that contradicts the 3DS Method (U with a method URL, Y when it never ran)", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511112003";
    const first = (await api(sandbox, "/preauth", { acctNumber: pan })).json!;
    expect(first.threeDSMethodURL).toBe(`${ORIGIN}/method`);
    for (const compInd of ["U", "Y"] as const) {
      const answer = await api(sandbox, "/auth", fullAReq(pan, String(first.threeDSServerTransID), compInd));
      expect(answer.json).toMatchObject({ messageType: "Erro", errorCode: "203", errorDetail: "threeDSCompInd" });
    }
  });

  it("refuses a missing JavaScript browser fact when browserJavascriptEnabled is true, and a field in the wrong format", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511112103";
    const { transId } = await preauthAndMethod(sandbox, pan);
    const { browserTZ: _omitted, ...withoutTz } = fullAReq(pan, transId, "U");
    expect((await api(sandbox, "/auth", withoutTz)).json).toMatchObject({ errorCode: "201", errorDetail: "browserTZ" });
    expect((await api(sandbox, "/auth", { ...fullAReq(pan, transId, "U"), purchaseDate: "2026-11-26" })).json).toMatchObject({
      errorCode: "203",
      errorDetail: "purchaseDate",
    });
  });

  it("lets a /preauth id be used once, for the same card, within 80 s", async () => {
    let clock = 1_000_000;
    const sandbox = createThreeDsServerSandbox({ now: () => clock });
    const pan = "4000100511112103";
    const other = "4000200511112103";
    const a = await preauthAndMethod(sandbox, pan);
    expect((await api(sandbox, "/auth", fullAReq(other, a.transId, "U"))).json).toMatchObject({
      errorDescription: "Unknown threeDSServerTransID",
    });
    expect((await api(sandbox, "/auth", fullAReq(pan, a.transId, "U"))).json).toMatchObject({ messageType: "ARes" });
    expect((await api(sandbox, "/auth", fullAReq(pan, a.transId, "U"))).json).toMatchObject({
      errorDescription: "Unknown threeDSServerTransID",
    });
    const b = await preauthAndMethod(sandbox, pan);
    clock += PREAUTH_TRANS_ID_TTL_MS + 1;
    expect((await api(sandbox, "/auth", fullAReq(pan, b.transId, "U"))).json).toMatchObject({
      errorDescription: "Unknown threeDSServerTransID",
    });
  });

  it("keeps the RReq for /postauth 300 s, then answers Erro 203", async () => {
    let clock = 1_000_000;
    const sandbox = createThreeDsServerSandbox({ now: () => clock });
    const pan = "4000100511112070";
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    const ares = (await api(sandbox, "/auth", fullAReq(pan, transId, compInd))).json!;
    const creq = b64url(challengeRequest({ threeDSServerTransID: transId, acsTransID: ares.acsTransID }));
    await form(sandbox, "/acs/challenge", { creq });
    expect((await api(sandbox, "/postauth", { threeDSServerTransID: transId })).json).toMatchObject({ messageType: "RReq" });
    expect((await api(sandbox, "/postauth", { threeDSServerTransID: transId })).json).toMatchObject({ messageType: "RReq" });
    clock += POSTAUTH_CACHE_TTL_MS + 1;
    expect((await api(sandbox, "/postauth", { threeDSServerTransID: transId })).json).toMatchObject({
      messageType: "Erro",
      errorCode: "203",
    });
  });

  it("has a random API key per sandbox and answers a wrong one with a plain-text 401", async () => {
    const one = createThreeDsServerSandbox();
    const two = createThreeDsServerSandbox();
    expect(one.apiKey).not.toBe(two.apiKey);
    expect(one.apiKey.length).toBeGreaterThanOrEqual(32);
    const refused = await api(one, "/preauth", { acctNumber: "4000100511112003" }, two.apiKey);
    expect(refused.status).toBe(401);
    expect(refused.json).toBeUndefined();
  });
});

describe("strict 3DS Server sandbox: the request headers of server-information.rst", () => {
  /** A request to the 3DS Server with `contentType` (absent: no Content-Type header at all). */
  async function withContentType(sandbox: Sandbox, path: string, body: unknown, contentType?: string) {
    const headers: Record<string, string> = { APIKey: sandbox.apiKey };
    if (contentType !== undefined) headers["content-type"] = contentType;
    const response = await sandbox.handler(new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
    return { status: response.status, json: (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined };
  }

  it("refuses /preauth, /auth and /postauth without 'Content-Type: application/json; charset=utf-8', and takes the header in any case and spacing", async () => {
    const sandbox = createThreeDsServerSandbox();
    for (const path of ["/preauth", "/auth", "/postauth"]) {
      for (const contentType of ["application/json", "text/plain;charset=UTF-8", "application/json; charset=latin1", undefined]) {
        const refused = await withContentType(sandbox, path, { acctNumber: "4000100511112003" }, contentType);
        expect(refused.status, `${path} ${contentType}`).toBe(415);
        expect(refused.json, `${path} ${contentType}`).toMatchObject({ messageType: "Erro", errorCode: "101" });
      }
    }
    for (const contentType of ["application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON; Charset=\"utf-8\""]) {
      const accepted = await withContentType(sandbox, "/preauth", { acctNumber: "4000100511112003" }, contentType);
      expect(accepted.status, contentType).toBe(200);
      expect(accepted.json, contentType).toHaveProperty("threeDSServerTransID");
    }
  });
});

describe("strict 3DS Server sandbox: the requestor's choices and the cardholder's data", () => {
  /** An AReq for `pan` after /preauth (and the method), with `extra` fields over fullAReq's. */
  async function authWith(sandbox: Sandbox, pan: string, extra: Record<string, unknown>, messageVersion = "2.2.0") {
    const { transId, compInd } = await preauthAndMethod(sandbox, pan);
    return api(sandbox, "/auth", { ...fullAReq(pan, transId, compInd, messageVersion), ...extra });
  }

  it("takes threeDSRequestorChallengeInd 01-09 in 2.2.0 but only 01-04 in 2.1.0 (areq_210: 05-09 came with 2.2.0)", async () => {
    const sandbox = createThreeDsServerSandbox();
    for (const indicator of ["01", "02", "03", "05", "09"])
      expect((await authWith(sandbox, "4000100511112003", { threeDSRequestorChallengeInd: indicator })).json).toMatchObject({
        messageType: "ARes",
        transStatus: "Y",
      });
    expect((await authWith(sandbox, "4000100511111003", { threeDSRequestorChallengeInd: "02" }, "2.1.0")).json).toMatchObject({
      transStatus: "Y",
    });
    expect((await authWith(sandbox, "4000100511111003", { threeDSRequestorChallengeInd: "05" }, "2.1.0")).json).toMatchObject({
      errorCode: "203",
      errorDetail: "threeDSRequestorChallengeInd",
    });
    expect((await authWith(sandbox, "4000100511112003", { threeDSRequestorChallengeInd: "4" })).json).toMatchObject({
      errorCode: "203",
      errorDetail: "threeDSRequestorChallengeInd",
    });
  });

  it("challenges a challenge card whatever was asked (02 too), with acsChallengeMandated Y", async () => {
    const sandbox = createThreeDsServerSandbox();
    expect((await authWith(sandbox, "4000100511112072", { threeDSRequestorChallengeInd: "02" })).json).toMatchObject({
      transStatus: "C",
      acsChallengeMandated: "Y",
    });
  });

  it("sandbox-only: a requestor's mandate (04) makes a frictionless card challenge (acsChallengeMandated N); 03 leaves it to the card", async () => {
    const sandbox = createThreeDsServerSandbox();
    const mandated = await authWith(sandbox, "4000100511112003", { threeDSRequestorChallengeInd: "04" });
    expect(mandated.json).toMatchObject({ transStatus: "C", acsChallengeMandated: "N", acsURL: `${ORIGIN}/acs/challenge` });
    const preferred = await authWith(sandbox, "4000100511112003", { threeDSRequestorChallengeInd: "03" });
    expect(preferred.json).toMatchObject({ transStatus: "Y" });
    // A card that is not frictionless is not turned into a challenge: N stays N.
    expect((await authWith(sandbox, "4000100511112013", { threeDSRequestorChallengeInd: "04" })).json).toMatchObject({ transStatus: "N" });
    // The mandated challenge is the manual one: the code passes it, and /postauth has the RReq.
    const json = mandated.json!;
    const creq = b64url({
      messageType: "CReq",
      messageVersion: json.messageVersion,
      threeDSServerTransID: json.threeDSServerTransID,
      acsTransID: json.acsTransID,
      challengeWindowSize: "05",
    });
    const challenge = await form(sandbox, "/acs/challenge", { creq });
    expect(challenge.html).toContain("enter the code");
    const done = await form(sandbox, "/acs/challenge/submit", {
      acsTransID: String(json.acsTransID),
      threeDSSessionData: "",
      action: "complete",
      code: THREEDS_SERVER_CHALLENGE_CODE,
    });
    expect(autoPosted(done.html)?.action).toBe(NOTIFY);
    expect((await api(sandbox, "/postauth", { threeDSServerTransID: json.threeDSServerTransID })).json).toMatchObject({
      messageType: "RReq",
      transStatus: "Y",
    });
  });

  it("refuses a malformed cardholder name, e-mail or address with Erro 203, and a shipAddrState without shipAddrCountry with 201", async () => {
    const sandbox = createThreeDsServerSandbox();
    const pan = "4000100511112103";
    for (const [field, value] of [
      ["cardholderName", "Søren Ærø"],
      ["cardholderName", "J"],
      ["cardholderName", "x".repeat(46)],
      ["email", "not an address"],
      ["billAddrCountry", "DK"],
      ["billAddrCountry", "999"],
      ["billAddrPostCode", "1".repeat(17)],
      ["shipAddrCity", "c".repeat(51)],
    ] as const)
      expect((await authWith(sandbox, pan, { [field]: value })).json, `${field} ${value}`).toMatchObject({
        errorCode: "203",
        errorDetail: field,
      });
    expect((await authWith(sandbox, pan, { shipAddrState: "84" })).json).toMatchObject({
      errorCode: "201",
      errorDetail: "shipAddrCountry",
    });
    expect(
      (await authWith(sandbox, pan, { billAddrCountry: "208", billAddrCity: "Aarhus", shipAddrState: "84", shipAddrCountry: "208" })).json,
    ).toMatchObject({ transStatus: "Y" });
  });
});
