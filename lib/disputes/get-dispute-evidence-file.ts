// One evidence file of a merchant's dispute, for download from the back office or the merchant API,
// with the headers it must be served with (docs/decisions/0199): always an attachment, never sniffed,
// its checked type, so a file can never run as a page of our origin.
import { db } from "../db";
import { invalidParameter } from "../errors";

export async function getDisputeEvidenceFile({ merchantId, evidenceId }: { merchantId: string; evidenceId: string }): Promise<{
  bytes: Uint8Array;
  headers: Record<string, string>;
}> {
  const file = await db().disputeEvidence.findFirst({
    where: { id: evidenceId, dispute: { merchantId } },
    select: { fileName: true, contentType: true, size: true, bytes: true },
  });
  if (!file) throw invalidParameter("evidence", "no such file");
  const asciiName = file.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return {
    bytes: file.bytes,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    },
  };
}
