// The 3-D Secure sandbox's own rules, through its fetch handler.
import { describe, expect, it } from "vitest";
import { createThreeDsSandbox, THREEDS_SANDBOX_API_KEY } from "@/lib/sandboxes/threeds/directory-server";
import { cres, decodeBase64Url, encodeBase64Url, type ARes } from "@/lib/threeds/messages";
import { quietFor } from "@/tests/helpers/eventually";
import { challengeRequest, minimalAReq } from "@/tests/helpers/threeds-messages";

const ORIGIN = "http://acs.test";

const areq = (pan: string) => minimalAReq(pan, "https://merchant.example/dynamic/s1/payments/p1/challenge-notify");

const post = (handler: ReturnType<typeof createThreeDsSandbox>["handler"], path: string, body: unknown, apiKey = THREEDS_SANDBOX_API_KEY) =>
  handler(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: apiKey },
      body: JSON.stringify(body),
    }),
  );

describe("3-D Secure sandbox", () => {
  it("refuses a wrong API key and a malformed AReq", async () => {
    const { handler } = createThreeDsSandbox();
    expect((await post(handler, "/auth", areq("4111111111111111"), "wrong")).status).toBe(401);
    const malformed = await post(handler, "/auth", { ...areq("4111111111111111"), purchaseCurrency: "DKK" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ messageType: "Erro", errorCode: "203" });
  });

  it("ends a challenge left unfinished past its time-out with N, reason 14", async () => {
    const { handler } = createThreeDsSandbox({ challengeTimeoutMs: 50 });
    const message = areq("4000000000003220");
    const ares = (await (await post(handler, "/auth", message)).json()) as ARes;
    expect(ares.transStatus).toBe("C");
    expect(await (await post(handler, "/postauth", { threeDSServerTransID: message.threeDSServerTransID })).json()).toMatchObject({
      messageType: "Erro",
      errorCode: "305",
    });
    await quietFor(80, "the challenge's time runs out");
    const rreq = await (await post(handler, "/postauth", { threeDSServerTransID: message.threeDSServerTransID })).json();
    expect(rreq).toMatchObject({ messageType: "RReq", transStatus: "N", transStatusReason: "14" });
    expect(rreq.authenticationValue).toBeUndefined();
    // The page, opened too late, hands the negative CRes straight back.
    const creq = encodeBase64Url(challengeRequest(ares));
    const page = await (await handler(new Request(ares.acsURL!, { method: "POST", body: new URLSearchParams({ creq }) }))).text();
    const cresValue = /name="cres" value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(decodeBase64Url(cres, cresValue)).toMatchObject({ transStatus: "N" });
  });

  it("N18: the challenge page shows the amount with the currency's letters (DKK), not its ISO number (208)", async () => {
    const { handler } = createThreeDsSandbox();
    const message = areq("4000000000003220");
    const ares = (await (await post(handler, "/auth", message)).json()) as ARes;
    const creq = encodeBase64Url(challengeRequest(ares));
    const page = await (await handler(new Request(ares.acsURL!, { method: "POST", body: new URLSearchParams({ creq }) }))).text();
    expect(page).toContain("<dt>Amount</dt><dd>10.00 DKK</dd>");
    expect(page).not.toContain(" 208<");
  });

  it("gives the ACS URL at its public address when one is set", async () => {
    const { handler } = createThreeDsSandbox({ publicUrl: "https://pay.example/sandbox/threeds/" });
    // Mounted on the service at pay.example: the notification address is that service's own.
    const message = { ...areq("4000000000003006"), notificationURL: "https://pay.example/dynamic/s1/payments/p1/challenge-notify" };
    const ares = (await (await post(handler, "/auth", message)).json()) as ARes;
    expect(ares.acsURL).toBe("https://pay.example/sandbox/threeds/acs/challenge");
  });
});
