// What an ARes (frictionless) or an RReq (after a challenge) says about an authentication, as its
// ThreeDsAuthentication row keeps it: the result fields, and the message whole for acquirers that
// take it so (Clearhaus).
import type { Prisma } from "../generated/prisma/client";
import type { ARes } from "./messages";

export function authenticationResultColumns(
  result: Pick<ARes, "dsTransID" | "transStatus" | "transStatusReason" | "eci" | "authenticationValue"> & { message: Record<string, unknown> },
) {
  return {
    dsTransId: result.dsTransID,
    transStatus: result.transStatus,
    transStatusReason: result.transStatusReason,
    eci: result.eci,
    authenticationValue: result.authenticationValue,
    resultMessage: result.message as Prisma.InputJsonObject,
  };
}
