// The merchant API's list of disputes (GET /api/disputes): the merchant's own of the key's mode,
// filtered by status and payment (its paymentid or merchantpaymentid; one that is not the
// merchant's is refused as unknown, as everywhere in the API), in listDisputes' order.
import type { Mode } from "../mode";
import { getPaymentOrThrow } from "../payments/get-payment-or-throw";
import type { DisputeBody, DisputeStatusValue } from "../validation/disputes";
import type { DisputeStatus } from "../generated/prisma/enums";
import { disputeResource } from "./dispute-resource";
import { listDisputes } from "./list-disputes";

export async function listMerchantDisputes({
  merchantId,
  mode,
  status,
  paymentRef,
  limit = 100,
}: {
  merchantId: string;
  mode: Mode;
  status?: DisputeStatusValue[];
  paymentRef?: string;
  limit?: number;
}): Promise<{ disputes: DisputeBody[] }> {
  const paymentId = paymentRef === undefined ? undefined : await getPaymentOrThrow({ merchantId, mode, paymentRef });
  const items = await listDisputes({
    merchantId,
    mode,
    status: status?.map((value) => value.replaceAll("-", "_") as DisputeStatus),
    paymentId,
    limit,
  });
  return { disputes: items.map((item) => disputeResource(item, mode)) };
}
