// POST /api/{paymentid}/refund: refund a captured payment (spec 4.5).
import { merchantRoute } from "@/lib/api/merchant-route";
import { refundPayment } from "@/lib/payments/refund-payment";
import { operationRequestSchema } from "@/lib/validation/operation";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "follow-ups",
  schema: operationRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input, bindAnswer }) => ({
    body: await refundPayment({ merchantId, mode, paymentRef, responseId, input, bindAnswer }),
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
