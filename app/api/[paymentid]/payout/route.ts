// POST /api/{paymentid}/payout: pay money out to the card behind a payment; answered synchronously (spec 4.7).
import { merchantRoute } from "@/lib/api/merchant-route";
import { payout } from "@/lib/payments/payout";
import { payoutRequestSchema } from "@/lib/validation/payout";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "payouts",
  schema: payoutRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input }) => ({
    body: { ...(await payout({ merchantId, mode, paymentRef, responseId, input })) },
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
