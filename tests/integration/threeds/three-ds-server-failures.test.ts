// What a payment gets when the 3DS Server fails: /preauth or /auth answering an error, an Erro
// message or nothing at all. Over real HTTP (our cardholder endpoints, the acquirer sandboxes, a 3DS
// Server on loopback that misbehaves as asked) with a real database. FORCE_3DS: the cardholder is told
// authentication failed and no acquirer is asked; FALLBACK_3DS: the merchant's fallback authorizes
// without 3-D Secure. Either way the authentication row says which step failed and why.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { setEnv } from "@/tests/helpers/set-env";
import { useCardholderServices } from "@/tests/helpers/cardholder-services";
import { createTestSession } from "../../helpers/session-factory";

useTestDatabase();

type Fault = "preauth-500" | "preauth-erro" | "preauth-hang" | "auth-erro" | "auth-hang";
const MERCHANT_ORIGIN = "http://shop.example";
const VISA = { pan: "4111111111111111", expmonth: "12", expyear: String(new Date().getUTCFullYear() + 1), securitycode: "123" };
const saved = {
  THREEDS_TEST_SERVER_URL: process.env.THREEDS_TEST_SERVER_URL,
  THREEDS_TEST_API_KEY: process.env.THREEDS_TEST_API_KEY,
  PROCESSOR_TIMEOUT_MS: process.env.PROCESSOR_TIMEOUT_MS,
};

let fault: Fault = "preauth-500";
let threeDsServer: http.Server;
const hanging = new Set<http.ServerResponse>();

function erro(response: http.ServerResponse, errorCode: string, errorDescription: string, errorDetail: string) {
  response.writeHead(400, { "content-type": "application/json" });
  response.end(
    JSON.stringify({ messageType: "Erro", messageVersion: "2.2.0", errorCode, errorComponent: "S", errorDescription, errorDetail }),
  );
}

beforeAll(async () => {
  threeDsServer = http.createServer((request, response) => {
    request.resume();
    const path = request.url ?? "";
    if ((fault === "preauth-hang" && path === "/preauth") || (fault === "auth-hang" && path === "/auth")) {
      hanging.add(response);
      return;
    }
    if (path === "/preauth") {
      if (fault === "preauth-500") return void response.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      // 3dsecure.io's not-enrolled answer (preauth.rst), with the PAN in the detail to prove it is not logged.
      if (fault === "preauth-erro") return erro(response, "305", "Unknown BIN", "No CRD found, card 4111111111111111 is not enrolled");
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(
        JSON.stringify({ messageType: "CRD", threeDSServerTransID: crypto.randomUUID(), acsProtocolVersions: [{ version: "2.2.0" }] }),
      );
    }
    if (path === "/auth") return erro(response, "201", "Required Data Element Missing", "browserAcceptHeader");
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => threeDsServer.listen(0, "127.0.0.1", resolve));
  setEnv({
    THREEDS_TEST_SERVER_URL: `http://127.0.0.1:${(threeDsServer.address() as AddressInfo).port}`,
    THREEDS_TEST_API_KEY: "test-key",
    PROCESSOR_TIMEOUT_MS: "1000",
  });
});
// Registered after the hook above: the sandboxes start with the 3DS Server and the time-out configured.
const services = useCardholderServices({ hangMs: 3000, extensions: true });

afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => threeDsServer.close(resolve));
  setEnv(saved);
});

const post = (path: string, body: unknown) => services.server.postJson(path, body);

async function pay(set3ds: "FORCE_3DS" | "FALLBACK_3DS") {
  const session = await createTestSession(services.merchantId, { notificationUrl: "http://127.0.0.1:9/notify", set3ds });
  const started = await post(`/dynamic/${session.id}/payments`, {});
  const paymentId = String(started.paymentid);
  const binding = createOriginBinding(session.id, MERCHANT_ORIGIN);
  const result = await post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card: VISA, binding });
  const authentication = await db().threeDsAuthentication.findFirstOrThrow({ where: { paymentId } });
  const operations = await db().operation.findMany({ where: { paymentId, type: "authorize" } });
  const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
  return { paymentId, result, authentication, operations, payment };
}

const FAULTS: [Fault, string][] = [
  ["preauth-500", "ds_unavailable"],
  ["preauth-erro", "not_enrolled"],
  ["preauth-hang", "ds_unavailable"],
  ["auth-erro", "ds_unavailable"],
  ["auth-hang", "ds_unavailable"],
];

describe("a failing 3DS Server", () => {
  it.each(FAULTS)("%s, FORCE_3DS: AUTHENTICATION_FAILED, no acquirer asked, the reason recorded", async (which, reason) => {
    fault = which;
    const { paymentId, result, authentication, operations, payment } = await pay("FORCE_3DS");
    expect(result).toMatchObject({ result: "failed", paymentid: paymentId, errorcode: "AUTHENTICATION_FAILED" });
    expect(operations).toEqual([]);
    expect(payment.status).toBe("FAILED");
    expect(authentication).toMatchObject({ state: "failed", transStatusReason: reason, eci: null, authenticationValue: null });
  });

  it.each(FAULTS)("%s, FALLBACK_3DS: the merchant's fallback authorizes without 3-D Secure", async (which, reason) => {
    fault = which;
    const { paymentId, result, authentication, operations, payment } = await pay("FALLBACK_3DS");
    expect(result).toEqual({ result: "approved", paymentid: paymentId });
    expect(operations.map((operation) => operation.status)).toEqual(["approved"]);
    expect(payment.sca).toBeNull();
    expect(payment.eci).toBeNull();
    expect(authentication).toMatchObject({ state: "failed", transStatusReason: reason });
  });
});
