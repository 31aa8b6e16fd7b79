// POST /api/{paymentid}/payout: pay money out to the card behind a payment; answered synchronously (spec 4.7).
import { merchantRoute } from "@/lib/api/merchant-route";
import { payout, payoutAnswer, payoutLeaseMs } from "@/lib/payments/payout";
import { payoutRequestSchema } from "@/lib/validation/payout";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "payouts",
  schema: payoutRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input }) => ({
    body: { ...(await payout({ merchantId, mode, paymentRef, responseId, input })) },
  }),
  // A repeat with the same Idempotency-Key waits while the first request may still be calling acquirers,
  // then gets the payout's state from its operations (pending until settled), never a second payout.
  idempotencyLeaseMs: payoutLeaseMs,
  resolveHolderWork: async (holderResponseId) => {
    const answer = await payoutAnswer(holderResponseId);
    return answer && { status: 200, body: JSON.stringify(answer), final: answer.status !== "pending" };
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
