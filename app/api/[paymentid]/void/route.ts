// POST /api/{paymentid}/void: void an authorized, uncaptured payment (spec 4.6).
import { merchantRoute } from "@/lib/api/merchant-route";
import { voidPayment } from "@/lib/payments/void-payment";
import { operationRequestSchema } from "@/lib/validation/operation";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "follow-ups",
  schema: operationRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input, bindAnswer }) => ({
    body: await voidPayment({ merchantId, mode, paymentRef, responseId, input, bindAnswer }),
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
