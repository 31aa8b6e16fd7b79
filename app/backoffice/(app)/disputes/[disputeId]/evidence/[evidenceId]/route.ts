// GET /backoffice/disputes/{disputeId}/evidence/{evidenceId}: one evidence file of the merchant's
// dispute, as a download only (attachment, nosniff, sandboxed; docs/decisions/0199), signed-in users.
import { NotFoundError } from "@/lib/auth/actor";
import { currentUser } from "@/lib/auth/session";
import { downloadDisputeEvidence } from "@/lib/backoffice/queries/download-dispute-evidence";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ disputeId: string; evidenceId: string }> }): Promise<Response> {
  const user = await currentUser();
  if (!user) return new Response("Sign in first.", { status: 401 });
  const { disputeId, evidenceId } = await params;
  try {
    const file = await downloadDisputeEvidence({ merchantId: user.merchantId, mode: user.mode, disputeId, evidenceId });
    return new Response(new Uint8Array(file.bytes), { headers: file.headers });
  } catch (error) {
    if (error instanceof NotFoundError) return new Response("Not found.", { status: 404 });
    throw error;
  }
}
