// GET /api/{paymentid}/payment: the payment record, delivered by notification (spec 4.8, 6.5).
import { merchantRoute } from "@/lib/api/merchant-route";
import { requestPaymentDetails } from "@/lib/payments/request-payment-details";
import { paymentDetailsRequestSchema } from "@/lib/validation/payment-details";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const GET = merchantRoute({
  scope: "read",
  schema: paymentDetailsRequestSchema,
  handler: async ({ merchantId, mode, paymentRef, responseId, input }) => ({
    body: await requestPaymentDetails({ merchantId, mode, paymentRef, responseId, input }),
  }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
