// The client address rule (lib/http/client-ip.ts) and the back-office headers (lib/http/backoffice-headers.ts).
import { describe, expect, it } from "vitest";
import { clientIp, normalizeIp } from "@/lib/http/client-ip";
import { PEER_ADDRESS_HEADER, stampPeerAddresses } from "@/lib/http/peer-address";
import { backofficeHeaders } from "@/lib/http/backoffice-headers";
import http from "node:http";

async function stampedHeaders(forwardedFor?: string, forgedPeer?: string): Promise<Headers> {
  stampPeerAddresses();
  const server = http.createServer((request, response) => {
    response.end(JSON.stringify(request.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const headers: Record<string, string> = {};
  if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
  if (forgedPeer) headers[PEER_ADDRESS_HEADER] = forgedPeer;
  const seen = (await (await fetch(`http://127.0.0.1:${port}/`, { headers })).json()) as Record<string, string>;
  server.close();
  return new Headers(seen);
}

describe("clientIp", () => {
  it("with 0 trusted hops ignores X-Forwarded-For and uses the stamped socket address", async () => {
    const headers = await stampedHeaders("203.0.113.5");
    expect(clientIp(headers, 0)).toBe("127.0.0.1");
  });

  it("ignores a peer-address header the client wrote itself", async () => {
    const headers = await stampedHeaders(undefined, "garbage 203.0.113.9");
    expect(clientIp(headers, 0)).toBe("127.0.0.1");
    expect(clientIp(new Headers({ [PEER_ADDRESS_HEADER]: "guessed-token 203.0.113.9" }), 0)).toBeNull();
  });

  it("with N hops takes the N-th address from the right, never what the client prepended", async () => {
    const headers = await stampedHeaders("6.6.6.6, 203.0.113.5, 10.0.0.2");
    expect(clientIp(headers, 1)).toBe("10.0.0.2");
    expect(clientIp(headers, 2)).toBe("203.0.113.5");
    // More hops than entries: the farthest entry there is.
    expect(clientIp(headers, 9)).toBe("6.6.6.6");
  });

  it("normalizes IPv4-mapped IPv6 and refuses what is not an address", () => {
    expect(normalizeIp("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeIp("[2001:db8::1]")).toBe("2001:db8::1");
    expect(normalizeIp("<script>")).toBeNull();
  });
});

describe("backofficeHeaders", () => {
  it("scopes frame-ancestors 'none' to the back office and next-auth, and adds HSTS only in production", () => {
    expect(backofficeHeaders("/backoffice/settings/api-key", { isProduction: false })).toMatchObject({ "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" });
    expect(backofficeHeaders("/api/auth/session", { isProduction: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(backofficeHeaders("/api/auth/session", { isProduction: false, nonce: "bm9uY2U=" })["Content-Security-Policy"]).toBe("frame-ancestors 'none'");
    expect(backofficeHeaders("/backoffice", { isProduction: true })["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
    expect(backofficeHeaders("/dynamic/abc/pan", { isProduction: true, nonce: "bm9uY2U=" })).toEqual({});
    expect(backofficeHeaders("/backofficex", { isProduction: false, nonce: "bm9uY2U=" })).toEqual({});
    // The live styling preview is framed by the back office itself, and by nothing else; its own
    // answer carries the hosted field's policy.
    expect(backofficeHeaders("/backoffice/settings/hosted/preview", { isProduction: false, nonce: "bm9uY2U=" })).toMatchObject({
      "Content-Security-Policy": "frame-ancestors 'self'",
      "X-Frame-Options": "SAMEORIGIN",
    });
  });

  it("gives back-office pages a nonce script policy (unsafe-eval only under next dev)", () => {
    const policy = backofficeHeaders("/backoffice/settings/api-key", { isProduction: true, nonce: "bm9uY2U=" })["Content-Security-Policy"]!;
    const directives = new Map(policy.split("; ").map((part) => [part.split(" ")[0], part.split(" ").slice(1)]));
    expect(directives.get("script-src")).toEqual(["'self'", "'nonce-bm9uY2U='", "'strict-dynamic'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    expect(directives.get("form-action")).toEqual(["'self'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("default-src")).toEqual(["'self'"]);
    expect(backofficeHeaders("/backoffice", { isProduction: false, nonce: "bm9uY2U=", development: true })["Content-Security-Policy"]).toContain("'strict-dynamic' 'unsafe-eval'");
  });
});
