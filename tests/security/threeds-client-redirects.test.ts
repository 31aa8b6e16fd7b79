// Security review 3, L9: the 3-D Secure client followed redirects with fetch's default, and undici
// keeps a custom `apikey` header on a redirect to another origin: a DS answering 302 (a compromised
// DS, or an http:// DS URL on a hostile network) handed THREEDS_API_KEY to any address it named. It
// also read answers of any size. Against real HTTP servers on loopback: a redirect is not followed
// (the second server never hears of the key) and a 20 MB answer is refused at the cap.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { sendAReq, ThreeDsUnavailableError } from "@/lib/threeds/ds-client";
import type { AReq } from "@/lib/threeds/messages";

const API_KEY = "ds-api-key-that-must-stay-home";
let elsewhere: http.Server;
let ds: http.Server;
const heardElsewhere: Array<{ url: string; apikey: string | undefined }> = [];
let mode: "redirect" | "huge" = "redirect";
const saved = { url: process.env.THREEDS_SERVER_URL, key: process.env.THREEDS_API_KEY };

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  elsewhere = http.createServer((request, response) => {
    heardElsewhere.push({ url: request.url ?? "", apikey: request.headers.apikey as string | undefined });
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  const elsewhereUrl = await listen(elsewhere);
  ds = http.createServer((request, response) => {
    request.resume();
    if (mode === "redirect") {
      // Another origin (another port): undici would send the request on, with the apikey header.
      response.writeHead(307, { location: `${elsewhereUrl.replace("127.0.0.1", "localhost")}/steal` }).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < 20 && !response.destroyed) {
        sent++;
        if (!response.write(chunk)) return void response.once("drain", pump);
      }
      response.end();
    };
    pump();
  });
  process.env.THREEDS_SERVER_URL = await listen(ds);
  process.env.THREEDS_API_KEY = API_KEY;
  resetConfig();
});

afterAll(async () => {
  process.env.THREEDS_SERVER_URL = saved.url;
  process.env.THREEDS_API_KEY = saved.key;
  if (saved.url === undefined) delete process.env.THREEDS_SERVER_URL;
  if (saved.key === undefined) delete process.env.THREEDS_API_KEY;
  resetConfig();
  ds.closeAllConnections();
  elsewhere.closeAllConnections();
  await Promise.all([new Promise((resolve) => ds.close(resolve)), new Promise((resolve) => elsewhere.close(resolve))]);
});

const AREQ = { messageType: "AReq", threeDSServerTransID: "00000000-0000-4000-8000-000000000000" } as unknown as AReq;

describe("L9: the 3-D Secure client", () => {
  it("L9: follows no redirect, so the API key never reaches another address", async () => {
    mode = "redirect";
    await expect(sendAReq(AREQ, "live")).rejects.toBeInstanceOf(ThreeDsUnavailableError);
    expect(heardElsewhere).toEqual([]);
  });

  it("L9: refuses an answer past its cap instead of reading 20 MB", async () => {
    mode = "huge";
    await expect(sendAReq(AREQ, "live")).rejects.toThrow(/larger than/);
  });
});
