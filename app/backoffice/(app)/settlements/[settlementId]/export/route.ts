// GET /backoffice/settlements/{settlementId}/export: one settlement's lines with their reconciliation
// as CSV (docs/decisions/0201), a download for signed-in users of the merchant, of the mode shown.
import { NotFoundError } from "@/lib/auth/actor";
import { currentUser } from "@/lib/auth/session";
import { exportSettlementCsv } from "@/lib/backoffice/queries/export-settlement-csv";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ settlementId: string }> }): Promise<Response> {
  const user = await currentUser();
  if (!user) return new Response("Sign in first.", { status: 401 });
  const { settlementId } = await params;
  try {
    const { fileName, csv } = await exportSettlementCsv({ merchantId: user.merchantId, mode: user.mode, settlementId });
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return new Response("Not found.", { status: 404 });
    throw error;
  }
}
