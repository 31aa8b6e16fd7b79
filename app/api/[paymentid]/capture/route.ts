// POST /api/{paymentid}/capture: capture an authorized payment (spec 4.4).
import { merchantRoute } from "@/lib/api/merchant-route";
import { capturePayment } from "@/lib/payments/capture-payment";
import { operationRequestSchema } from "@/lib/validation/operation";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  schema: operationRequestSchema,
  handler: async ({ merchantId, paymentRef, responseId, input }) => ({
    body: await capturePayment({ merchantId, paymentRef, responseId, input }),
  }),
});
