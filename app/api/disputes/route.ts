// GET /api/disputes: the merchant's disputes, open ones first by due date (beyond the spec; issue 40).
import { merchantRoute } from "@/lib/api/merchant-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";
import { listMerchantDisputes } from "@/lib/disputes/list-merchant-disputes";
import { listDisputesRequestSchema } from "@/lib/validation/disputes";

export const dynamic = "force-dynamic";

export const GET = merchantRoute({
  scope: "read",
  schema: listDisputesRequestSchema,
  handler: async ({ merchantId, mode, input }) => ({
    body: await listMerchantDisputes({ merchantId, mode, status: input.status, paymentRef: input.paymentid, limit: input.limit }),
  }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
