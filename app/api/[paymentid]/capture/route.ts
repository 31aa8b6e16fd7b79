// POST /api/{paymentid}/capture: capture an authorized payment (spec 4.4).
import { merchantRoute } from "@/lib/api/merchant-route";
import { capturePayment } from "@/lib/payments/capture-payment";
import { operationRequestSchema } from "@/lib/validation/operation";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "follow-ups",
  schema: operationRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input, bindAnswer }) => ({
    body: await capturePayment({ merchantId, mode, paymentRef, responseId, input, bindAnswer }),
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
