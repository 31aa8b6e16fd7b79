// POST /api/disputes/{disputeid}/decision: refute or accept a dispute at the acquirer (beyond the
// spec; issue 40). Answers the dispute as it stands afterwards.
import { merchantRoute } from "@/lib/api/merchant-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";
import { decideDispute } from "@/lib/disputes/decide-dispute";
import { disputeDecisionRequestSchema } from "@/lib/validation/disputes";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "disputes",
  schema: disputeDecisionRequestSchema,
  handler: async ({ merchantId, apiKeyId, mode, pathParams, input }) => ({
    body: await decideDispute({ merchantId, apiKeyId, mode, disputeId: pathParams.disputeid, decision: input.decision }),
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
