// GET /backoffice/payments/export: the filtered payments list as CSV, streamed (signed-in users only).
import { currentUser } from "@/lib/auth/session";
import { parsePaymentFilters } from "@/lib/backoffice/payment-filters";
import { exportPaymentsCsv } from "@/lib/backoffice/queries/export-payments-csv";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  if (!user) return new Response("Sign in first.", { status: 401 });
  const params = Object.fromEntries(new URL(request.url).searchParams.entries());
  const { filters } = parsePaymentFilters(params);
  const lines = exportPaymentsCsv({ merchantId: user.merchantId, mode: user.mode, filters });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await lines.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      // The mode in the name: a test export is never mistaken for live figures.
      "content-disposition": `attachment; filename="payments-${user.mode}-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
