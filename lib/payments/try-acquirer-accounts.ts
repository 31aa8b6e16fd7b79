// The routing loop that an authorization and a payout share: the accounts of the routing plan are
// tried in order, each attempt recorded before its call (a crash mid-call leaves a pending row whose
// outcome is looked up, never sent again), the call bounded by the account's connector, and what
// happens next decided by the caller from the answer: stop there, or go on to the next account.
// A call that could not be made (no endpoint for the account's mode, the account gone or its
// credentials to be entered again) is a "retryable" failure: nothing reached an acquirer.
import { AcquirerAccountMissingError, getAccountForCall, type AccountForCall } from "../routing/accounts/account-connector";
import type { RoutedAccount } from "../routing/routing";
import { ProcessorNotConfiguredError } from "../acquirers/registry";
import { RESPONSE_CODES, type ProcessorResult } from "../acquirers/contract";
import { faultPoint, type FaultPointName } from "../faults/fault-point";
import { markCallEnded } from "./settle-unknown-operation";

/** One account tried: which, its place in the order, and the operation recorded for it. */
export interface AccountAttempt extends RoutedAccount {
  index: number;
  operationId: string;
}

export interface TryAcquirerAccountsOptions {
  accounts: readonly RoutedAccount[];
  /** Records the attempt's pending operation before its call; returns its id. */
  begin(account: RoutedAccount, index: number): Promise<string>;
  /** The acquirer call of the attempt, through the account's connector (with the account's descriptor). */
  call(target: AccountForCall, attempt: AccountAttempt): Promise<ProcessorResult>;
  /** What the attempt's answer means: "stop" (an answer that ends the routing) or "next" (try the next account). */
  conclude(attempt: AccountAttempt, result: ProcessorResult): Promise<"stop" | "next">;
  /**
   * An error of our own around the call (not an answer): "rethrow" it once the call is marked ended
   * (the caller's job retries and looks the attempt up), or treat it as "indeterminate" (the acquirer
   * may have acted).
   */
  onError: "rethrow" | "indeterminate";
  /** Fault points of the tests (lib/faults): before the call, and after it before its answer is used. */
  faults: { beforeCall?: FaultPointName; afterCall: FaultPointName };
  /** Overrides the configured per-call time-out (tests, CLI). */
  timeoutMs?: number;
}

export async function tryAcquirerAccounts({ accounts, begin, call, conclude, onError, faults, timeoutMs }: TryAcquirerAccountsOptions): Promise<void> {
  for (const [index, account] of accounts.entries()) {
    const attempt: AccountAttempt = { ...account, index, operationId: await begin(account, index) };
    let result: ProcessorResult;
    try {
      if (faults.beforeCall) faultPoint(faults.beforeCall);
      result = await call(await getAccountForCall({ accountId: account.accountId, timeoutMs }), attempt);
    } catch (error) {
      if (error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError) {
        result = { status: "failed", failure: "retryable", responsecode: RESPONSE_CODES.unavailable, message: error.message };
      } else if (onError === "rethrow") {
        // Our own code failed around the call: nothing is in flight any more, so a retried step may look it up at once.
        await markCallEnded(attempt.operationId);
        throw error;
      } else {
        result = {
          status: "failed",
          failure: "indeterminate",
          responsecode: RESPONSE_CODES.unavailable,
          message: error instanceof Error ? error.message : String(error),
        };
      }
    }
    try {
      faultPoint(faults.afterCall);
    } catch (error) {
      await markCallEnded(attempt.operationId);
      throw error;
    }
    if ((await conclude(attempt, result)) === "stop") return;
  }
}
