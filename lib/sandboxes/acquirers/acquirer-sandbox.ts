// What the launcher (./start-sandboxes.ts) and local-mode seeding (../sandbox-merchant-accounts.ts)
// know of one acquirer's sandbox: each sandbox folder (./<name>/sandbox.ts) describes itself so, and
// ./index.ts lists them. Written from the acquirer's public reference, never from our connectors.
import type { AcquirerName } from "../../acquirers/names";
import type { SandboxFaults } from "./faults";
import type { SandboxLedger } from "./ledger";
import type { FetchHandler } from "./serve";

/**
 * The sandbox of an acquirer's reporting API (disputes and settlements, issue 40), beside its gateway
 * sandbox and sharing its ledger: the transactions the gateway sandbox processed are the ones it reports.
 */
export interface ReportingSandbox {
  create(options: { extensions: boolean; ledger: SandboxLedger }): { handler: FetchHandler };
  /** The largest request body it takes (evidence uploads). */
  readonly maxBodyBytes: number;
  /**
   * The reporting API credentials of test account `index` (its client at this sandbox), as a merchant
   * enters them: the demo merchant's account gets them, so the pollers import from the sandbox.
   */
  credentials(index: number): Record<string, string>;
}

/** What a merchant enters for one of the sandbox's test accounts, beyond the fields every account has. */
export interface SandboxMerchantAccount {
  acquirerMerchantId: string;
  credentials: Record<string, string>;
  mcc?: string;
  country?: string;
  /** "any", or the account's one currency where the acquirer settles one. */
  currencies?: string;
}

export interface AcquirerSandbox {
  readonly name: AcquirerName;
  /** The gateway path under the sandbox's address, where the acquirer has one endpoint; "" for the others. */
  readonly path: string;
  /** A running sandbox's handler and ledger; `extensions`: the sandbox-only extensions (docs/acquirers.md). */
  create(options: { hangMs?: number; extensions: boolean }): { handler: FetchHandler; ledger: SandboxLedger };
  readonly faults: SandboxFaults;
  /** Its reporting API's sandbox, where the acquirer publishes one (started on a port of its own). */
  readonly reporting?: ReportingSandbox;
  /** Test account `index` (0, 1 or 2) as a merchant enters it: credentials and the acquirer's view of the account. */
  merchantAccount(index: number): SandboxMerchantAccount;
  /** The process-wide credentials of earlier versions in place of the test account's, where they can stand for them. */
  legacyMerchantAccount?(credentials: Record<string, string>): Partial<SandboxMerchantAccount>;
}
