// An acquirer account's way into its acquirer's reporting API (issue 40): the module's reporting
// rules, a client for the account's mode and the account's own reporting credentials, opened and
// validated by the module's schema. Every dispute and settlement use case goes through here; tests
// inject a fake `accessFor` (an AcquirerReporting and a client implementing AcquirerReportingClient).
import type { AcquirerReporting, AcquirerReportingClient, ConnectorCall } from "../../acquirers/contract";
import type { AcquirerName } from "../../acquirers/names";
import { reportingClientFor, reportingOf } from "../../acquirers/reporting";
import { db } from "../../db";
import { invalidParameter } from "../../errors";
import type { Mode } from "../../mode";
import { openReportingCredentials } from "./seal-credentials";

export interface ReportingAccess {
  reporting: AcquirerReporting;
  client: AcquirerReportingClient<unknown>;
}

/** The reporting API of `processor` for `mode`'s accounts; undefined: none published, or no endpoint for that mode. */
export type ReportingAccessFor = (processor: AcquirerName, mode: Mode) => ReportingAccess | undefined;

/** The registry's: the module's `reporting` and a client of its configured endpoint (lib/acquirers/reporting.ts). */
export const registeredReportingAccess: ReportingAccessFor = (processor, mode) => {
  const reporting = reportingOf(processor);
  const client = reporting && reportingClientFor(processor, mode);
  return reporting && client ? { reporting, client } : undefined;
};

/** A client for the processes that only store credentials: any call is a bug, and says so. */
const NO_CALLS = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error("this process stores reporting credentials only; it calls no reporting API");
    },
  },
) as AcquirerReportingClient<unknown>;

/**
 * The module's reporting rules (its credentials schema) whatever endpoints this process can reach:
 * for storing credentials where no call is made (the operator CLI, which cannot reach a service's
 * in-process sandboxes; seeding the demo, before the sandboxes start). The service's own calls
 * (pollers, answers, `accounts test`) go through registeredReportingAccess.
 */
export const reportingRulesOnly: ReportingAccessFor = (processor) => {
  const reporting = reportingOf(processor);
  return reporting ? { reporting, client: NO_CALLS } : undefined;
};

export interface AccountReporting extends ReportingAccess {
  account: { id: string; merchantId: string; mode: Mode; processor: AcquirerName };
  /** The account's reporting credentials for every call of the client. */
  call: ConnectorCall<unknown>;
}

/** Why an account cannot reach a reporting API, in words for the account page and the log. */
export class ReportingUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReportingUnavailableError";
  }
}

/**
 * The acquirer publishes a reporting API, but this process has no endpoint for the account's mode:
 * `endpointVariable` is not set and, for a test account, no built-in sandbox runs in this process.
 * In the service that is the account's state (its pollers cannot import either); in another process,
 * such as the operator CLI, it says nothing of the account: the service may run the sandbox.
 */
export class ReportingNotReachableHereError extends ReportingUnavailableError {
  constructor(
    processor: AcquirerName,
    readonly mode: Mode,
    readonly endpointVariable: string,
  ) {
    super(
      `${processor} has no reporting API reachable for ${mode} accounts: ${endpointVariable} is not set` +
        (mode === "test" ? " and no built-in sandbox runs in this process" : ""),
    );
    this.name = "ReportingNotReachableHereError";
  }
}

export const REPORTING_ACCOUNT_SELECT = {
  id: true,
  merchantId: true,
  mode: true,
  processor: true,
  reportingCredentialsSealed: true,
  reportingCredentialsKeyId: true,
} as const;

type ReportingAccountRow = {
  id: string;
  merchantId: string;
  mode: Mode;
  processor: AcquirerName;
  reportingCredentialsSealed: string | null;
  reportingCredentialsKeyId: string | null;
};

/** The account's reporting access; throws ReportingUnavailableError when it has none (no API, no endpoint here: ReportingNotReachableHereError, no or unreadable credentials). */
export function accountReporting(row: ReportingAccountRow, accessFor: ReportingAccessFor = registeredReportingAccess): AccountReporting {
  const access = accessFor(row.processor, row.mode);
  if (!access) {
    const published = reportingOf(row.processor);
    if (published) throw new ReportingNotReachableHereError(row.processor, row.mode, published.endpointVariables[row.mode]);
    throw new ReportingUnavailableError(`${row.processor} publishes no reporting API (disputes, settlements)`);
  }
  if (!row.reportingCredentialsSealed || !row.reportingCredentialsKeyId)
    throw new ReportingUnavailableError(`the account has no ${access.reporting.label} credentials`);
  const opened = openReportingCredentials({ credentialsSealed: row.reportingCredentialsSealed, credentialsKeyId: row.reportingCredentialsKeyId }, row.id);
  const parsed = access.reporting.credentials.schema.safeParse(opened.credentials);
  if (opened.processor !== row.processor || !parsed.success)
    throw new ReportingUnavailableError(`the account's ${access.reporting.label} credentials are no longer valid: enter them again`);
  return {
    ...access,
    account: { id: row.id, merchantId: row.merchantId, mode: row.mode, processor: row.processor },
    call: { credentials: parsed.data },
  };
}

/** accountReporting of the account `accountId` of `merchantId` (refused as a parameter when it is not the merchant's). */
export async function loadAccountReporting({
  merchantId,
  accountId,
  accessFor,
}: {
  merchantId?: string;
  accountId: string;
  accessFor?: ReportingAccessFor;
}): Promise<AccountReporting> {
  const row = await db().acquirerAccount.findFirst({ where: { id: accountId, ...(merchantId ? { merchantId } : {}) }, select: REPORTING_ACCOUNT_SELECT });
  if (!row) throw invalidParameter("account", "no such acquirer account");
  return accountReporting(row, accessFor);
}
