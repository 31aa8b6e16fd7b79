// POST /api/disputes/{disputeid}/evidence: evidence files (multipart/form-data) and an optional
// comment, checked against the acquirer's rules and sent to it (beyond the spec; issue 40,
// docs/decisions/0202-dispute-evidence-as-multipart.md).
import { merchantRoute } from "@/lib/api/merchant-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";
import { EVIDENCE_BODY_MAX_BYTES, submitDisputeEvidenceFiles } from "@/lib/disputes/submit-dispute-evidence-files";
import { disputeEvidenceRequestSchema } from "@/lib/validation/disputes";

export const dynamic = "force-dynamic";

export const POST = merchantRoute({
  scope: "disputes",
  schema: disputeEvidenceRequestSchema,
  multipart: { maxBytes: EVIDENCE_BODY_MAX_BYTES },
  handler: async ({ merchantId, apiKeyId, mode, pathParams, input }) => ({
    body: await submitDisputeEvidenceFiles({ merchantId, apiKeyId, mode, disputeId: pathParams.disputeid, files: input.files, comment: input.comment }),
  }),
});

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
