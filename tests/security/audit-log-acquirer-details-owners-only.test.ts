// Security review 4, L4: Settings → Acquirer accounts is for owners only, but the audit log showed
// every viewer and developer each account's acquirer merchant id, MCC, BINs, descriptor and
// credential fingerprint (a deterministic HMAC that tells credential reuse apart). Against the real
// service over HTTP, signed in through next-auth as a viewer, a developer and the owner: the account's
// audit rows say what happened to which account name, and only the owner's page shows the details.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackofficeService, type BackofficeService } from "@/tests/helpers/backoffice-service";

const PASSWORD = "a long enough password";
/** Values an acquirer account's audit row holds (lib/routing/accounts/account-view.ts, auditFields). */
const DETAILS = {
  processor: "clearhaus",
  name: "Main Clearhaus",
  acquirerMerchantId: "MIDL4SECRET77",
  acquirerBins: { visa: "438765", mastercard: "523456" },
  mcc: "5734",
  merchantName: "Shop L4",
  country: "DK",
  descriptor: "SHOPL4DESCR",
  currencies: ["DKK"],
  enabled: true,
  mode: "live",
  credentialsFingerprint: "a8448bb8a193cd35",
};
const HIDDEN = ["MIDL4SECRET77", "438765", "523456", "5734", "SHOPL4DESCR", "a8448bb8a193cd35"];
let backoffice: BackofficeService;
const emails: Record<"OWNER" | "DEVELOPER" | "VIEWER", string> = { OWNER: "", DEVELOPER: "", VIEWER: "" };

beforeAll(async () => {
  backoffice = await startBackofficeService("audit-acquirer");
  const { createUser } = await import("@/lib/users/create-user");
  const { recordAuditEntry } = await import("@/lib/audit/audit");
  const { db } = await import("@/lib/db");
  const merchantId = backoffice.demo.merchantId;
  for (const role of ["OWNER", "DEVELOPER", "VIEWER"] as const) {
    emails[role] = `${role.toLowerCase()}-l4-${Date.now()}@example.com`;
    await createUser({ merchantId, email: emails[role], name: `L4 ${role}`, password: PASSWORD, role });
  }
  const owner = await db().user.findUniqueOrThrow({ where: { email: emails.OWNER }, select: { id: true } });
  // As the owner's add and change of an account record them (add-acquirer-account.ts, change-acquirer-account.ts).
  await recordAuditEntry(db(), { merchantId, userId: owner.id, action: "acquirer_account.created", target: "acct-l4", details: { after: DETAILS } });
  await recordAuditEntry(db(), {
    merchantId,
    userId: owner.id,
    action: "acquirer_account.updated",
    target: "acct-l4",
    details: { before: DETAILS, after: { ...DETAILS, descriptor: "SHOPL4DESCR", enabled: false } },
  });
}, 900_000);

afterAll(async () => {
  await backoffice?.stop();
});

async function auditPageAs(email: string, query = ""): Promise<string> {
  const { jar, error } = await backoffice.signIn(email, PASSWORD);
  expect(error).toBeUndefined();
  const page = await backoffice.call(`/backoffice/audit-log${query}`, { jar });
  expect(page.status).toBe(200);
  return page.text();
}

describe("L4: acquirer account details in the audit log are for owners", () => {
  it.each(["VIEWER", "DEVELOPER"] as const)("L4: a %s sees that an account was added and changed, but no MID, MCC, BIN, descriptor or fingerprint", async (role) => {
    for (const query of ["", "?action=acquirer_account.created", "?action=acquirer_account.updated"]) {
      const html = await auditPageAs(emails[role], query);
      expect(html).toContain(query.includes("updated") ? "Changed acquirer account" : "Added acquirer account");
      for (const value of HIDDEN) expect({ role, query, value, shown: html.includes(value) }).toEqual({ role, query, value, shown: false });
    }
  });

  it("L4: an owner sees the details", async () => {
    const html = await auditPageAs(emails.OWNER);
    for (const value of ["MIDL4SECRET77", "SHOPL4DESCR", "a8448bb8a193cd35"]) expect(html).toContain(value);
  });
});
