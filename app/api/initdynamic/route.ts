// POST /api/initdynamic: open a cardholder payment window (spec 4.1).
import { merchantRoute } from "@/lib/api/merchant-route";
import { initSession } from "@/lib/payments/init-session";
import { initSessionRequestSchema } from "@/lib/validation/init-session";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "payments",
  schema: initSessionRequestSchema,
  handler: async ({ merchantId, mode, input, bindAnswer }) => ({ body: { ...(await initSession({ merchantId, mode, input, bindAnswer })) } }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
