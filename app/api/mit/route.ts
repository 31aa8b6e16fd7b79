// POST /api/mit: authorize a merchant-initiated payment on behalf of a stored one (spec 4.3).
import { merchantRoute } from "@/lib/api/merchant-route";
import { authorizeMit } from "@/lib/payments/authorize-mit";
import { mitRequestSchema } from "@/lib/validation/mit";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "payments",
  schema: mitRequestSchema,
  handler: async ({ merchantId, mode, input, responseId, bindAnswer }) => {
    const { responseid } = await authorizeMit({ merchantId, mode, input, responseId, bindAnswer });
    return { body: { responseid } };
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
