// Finishes a challenged 3-D Secure authentication: the result comes from the directory server (the
// RReq), never from what the browser posted, and is recorded on the authentication.
import { db } from "../db";
import type { ThreeDsResult } from "../acquirers/contract";
import { fetchResult, ThreeDsUnavailableError } from "./ds-client";
import { authenticationResultColumns } from "./authentication-result-columns";
import { cres, decodeBase64Url } from "./messages";

export interface CompleteAuthenticationOptions {
  threeDsServerTransId: string;
  /** When given, the authentication must belong to this payment. */
  paymentId?: string;
}

export type CompleteAuthenticationResult =
  | { kind: "authenticated"; authenticationId: string; threeDs: ThreeDsResult }
  | { kind: "failed"; authenticationId: string; transStatus: string; reason: string }
  | { kind: "cancelled"; authenticationId: string }
  /**
   * The 3DS Server has no RReq: the challenge is not finished, its result expired (kept 300 s), or the
   * server failed. The authentication is left as it was; nothing is authorized on it.
   */
  | { kind: "no_result"; authenticationId: string; reason: string };

export class UnknownAuthenticationError extends Error {
  constructor() {
    super("no such 3-D Secure authentication");
    this.name = "UnknownAuthenticationError";
  }
}

/** The threeDSServerTransID inside a CRes the browser posted (only to find the authentication). */
export function threeDsServerTransIdFromCres(encoded: string): string | undefined {
  return decodeBase64Url(cres, encoded)?.threeDSServerTransID;
}

export async function completeAuthentication({
  threeDsServerTransId,
  paymentId,
}: CompleteAuthenticationOptions): Promise<CompleteAuthenticationResult> {
  const authentication = await db().threeDsAuthentication.findUnique({
    where: { threeDsServerTransId },
    include: { payment: { select: { mode: true } } },
  });
  if (!authentication || (paymentId && authentication.paymentId !== paymentId)) throw new UnknownAuthenticationError();
  const base = { authenticationId: authentication.id };
  let result;
  try {
    result = await fetchResult(threeDsServerTransId, authentication.payment.mode);
  } catch (error) {
    if (error instanceof ThreeDsUnavailableError) return { ...base, kind: "no_result", reason: error.message };
    throw error;
  }
  const cancelled = result.challengeCancel === "01";
  const authenticated = (result.transStatus === "Y" || result.transStatus === "A") && Boolean(result.eci);
  await db().threeDsAuthentication.update({
    where: { id: authentication.id },
    data: {
      ...authenticationResultColumns(result),
      state: authenticated ? "completed" : cancelled ? "aborted" : "failed",
      completedAt: new Date(),
    },
  });
  if (authenticated) {
    return {
      ...base,
      kind: "authenticated",
      threeDs: {
        eci: result.eci!,
        authenticationValue: result.authenticationValue,
        dsTransId: result.dsTransID,
        threeDsServerTransId,
        acsTransId: result.acsTransID,
        version: result.messageVersion,
        transStatus: result.transStatus as "Y" | "A",
        // The result came in the RReq (after the challenge): Clearhaus wants to know which.
        messageType: "RReq",
        message: JSON.stringify(result.message),
        acquirerAccountId: authentication.acquirerAccountId ?? undefined,
        authenticationId: authentication.id,
      },
    };
  }
  if (cancelled) return { ...base, kind: "cancelled" };
  return {
    ...base,
    kind: "failed",
    transStatus: result.transStatus,
    reason: `transStatus ${result.transStatus}${result.transStatusReason ? ` (reason ${result.transStatusReason})` : ""}`,
  };
}
