// The OAuth clients the Clearhaus Merchant API sandbox knows: one per gateway sandbox account
// (../accounts.ts), as a merchant registers a client with Clearhaus "to obtain client credentials,
// client_id and client_secret" (merchant-api/start [S1]). The id and secret formats are not
// published: these are the sandbox's own. Each client sees the one account it belongs to.
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "../accounts";

export interface MerchantApiSandboxClient {
  clientId: string;
  clientSecret: string;
  /** The Merchant API's id of the account (a UUID, as in the account example [S3]). */
  accountId: string;
  /** The gateway account's merchant_id: its transactions in the shared ledger are this account's. */
  merchantId: string;
}

const ACCOUNT_IDS = ["f72e20a6-31dc-4c24-9314-4bcc5b882001", "f72e20a6-31dc-4c24-9314-4bcc5b882002", "f72e20a6-31dc-4c24-9314-4bcc5b882003"];

export const MERCHANT_API_SANDBOX_CLIENTS: readonly MerchantApiSandboxClient[] = CLEARHAUS_SANDBOX_ACCOUNTS.map((account, index) => ({
  clientId: `sandbox-client-${index + 1}`,
  clientSecret: `sandbox-secret-${account.apiKey}`,
  accountId: ACCOUNT_IDS[index]!,
  merchantId: account.merchantId,
}));
