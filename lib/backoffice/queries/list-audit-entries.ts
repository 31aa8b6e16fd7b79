import { db } from "../../db";

export const AUDIT_PAGE_SIZE = 50;

/** The merchant's audit log, newest first, keyset-paginated by (createdAt, id). */
export async function listAuditEntries({ merchantId, before }: { merchantId: string; before?: string }) {
  let cursor: { createdAt: Date; id: string } | undefined;
  if (before) {
    const [iso, id] = Buffer.from(before, "base64url").toString("utf8").split("|");
    const createdAt = new Date(iso ?? "");
    if (id && !Number.isNaN(createdAt.getTime())) cursor = { createdAt, id };
  }
  const entries = await db().auditEntry.findMany({
    where: {
      merchantId,
      ...(cursor ? { createdAt: { lte: cursor.createdAt }, OR: [{ createdAt: { lt: cursor.createdAt } }, { id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: AUDIT_PAGE_SIZE + 1,
    select: { id: true, action: true, target: true, details: true, createdAt: true, user: { select: { email: true, name: true } } },
  });
  const rows = entries.slice(0, AUDIT_PAGE_SIZE);
  const last = rows[rows.length - 1];
  return {
    rows,
    next: entries.length > AUDIT_PAGE_SIZE && last ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString("base64url") : undefined,
  };
}
