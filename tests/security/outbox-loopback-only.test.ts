// Security review 4, L3: the local outbox (/backoffice/outbox, local mode without SMTP_URL) showed the
// 50 newest mails of every merchant, reset and invitation links included, to anyone who reached the
// port, with any Host header: a service bound beyond loopback, or a page using DNS rebinding in the
// developer's own browser, could take over any local account. Against the real service bound to all
// addresses, in a loopback-only network namespace with a second address of its own: the outbox answers
// only a loopback client that names a loopback host (the developer's browser on localhost); another
// Host header or another client address gets 404, and the kept links are not in the answer.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackofficeService, type BackofficeService } from "@/tests/helpers/backoffice-service";

/** An address of this namespace that is not loopback (TEST-NET-1): a client "on the network". */
const OTHER_ADDRESS = "192.0.2.10";
let backoffice: BackofficeService;
let resetLink: string;

beforeAll(async () => {
  // The security suite runs inside `unshare -n` as root: the address exists only in this namespace.
  execFileSync("ip", ["addr", "add", `${OTHER_ADDRESS}/32`, "dev", "lo"]);
  backoffice = await startBackofficeService("outbox", { env: { HOST: "0.0.0.0" } });
  // A kept mail with a single-use link, as "forgot password" leaves it.
  const { requestPasswordReset } = await import("@/lib/backoffice/actions/request-password-reset");
  await requestPasswordReset({ input: { email: backoffice.demo.email } });
  const { db } = await import("@/lib/db");
  // The use case keeps the mail before it returns (lib/mail/send-mail.ts without SMTP_URL).
  const mail = await db().localMail.findFirstOrThrow({ where: { to: backoffice.demo.email }, orderBy: { createdAt: "desc" } });
  resetLink = /\/backoffice\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
}, 900_000);

afterAll(async () => {
  await backoffice?.stop();
  try {
    execFileSync("ip", ["addr", "del", `${OTHER_ADDRESS}/32`, "dev", "lo"]);
  } catch {
    // the namespace ends with the run anyway
  }
});

describe("L3: the local outbox answers the developer's own browser only", () => {
  it("L3: a loopback client naming localhost sees the kept mails (the local flows still work)", async () => {
    const answer = await backoffice.call("/backoffice/outbox", { host: `localhost:${backoffice.service.port}` });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(resetLink);
  });

  it("L3: a loopback client with another Host header (DNS rebinding) gets 404 without the links", async () => {
    for (const host of ["attacker.example", `attacker.example:${backoffice.service.port}`, `localhost.attacker.example:${backoffice.service.port}`]) {
      const answer = await backoffice.call("/backoffice/outbox", { host });
      const text = await answer.text();
      expect({ host, status: answer.status, leaks: text.includes("/backoffice/reset-password/") }).toEqual({ host, status: 404, leaks: false });
    }
  });

  it("L3: a client from another address gets 404 without the links, whatever Host it names", async () => {
    for (const host of [`localhost:${backoffice.service.port}`, `127.0.0.1:${backoffice.service.port}`, `${OTHER_ADDRESS}:${backoffice.service.port}`]) {
      const answer = await backoffice.call("/backoffice/outbox", { from: OTHER_ADDRESS, host });
      const text = await answer.text();
      expect({ host, status: answer.status, leaks: text.includes("/backoffice/reset-password/") }).toEqual({ host, status: 404, leaks: false });
    }
  });
});
