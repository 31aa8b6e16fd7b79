// GET /api/disputes/{disputeid}: one dispute of the merchant's (beyond the spec; issue 40).
import { merchantRoute } from "@/lib/api/merchant-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";
import { getDisputeOrThrow } from "@/lib/disputes/get-dispute-or-throw";
import { getDisputeRequestSchema } from "@/lib/validation/disputes";

export const dynamic = "force-dynamic";

export const GET = merchantRoute({
  scope: "read",
  schema: getDisputeRequestSchema,
  handler: async ({ merchantId, mode, pathParams }) => ({
    body: await getDisputeOrThrow({ merchantId, mode, disputeId: pathParams.disputeid }),
  }),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
