import { z } from "zod";
import { db } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import type { UserRole } from "../../generated/prisma/enums";
import { roleCan } from "../../auth/roles";
import { AUDIT_ACTIONS, type AuditAction } from "../../audit/audit";

export const AUDIT_PAGE_SIZE = 50;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD")
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "Not a real date",
  );

/**
 * The audit log's filters as they come from the query string (so a filtered view can be linked and
 * survives paging): an action, a user (or "system" for the operator), and a UTC date range.
 */
export const auditFiltersSchema = z
  .object({
    action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]], { error: "Unknown action" }).optional(),
    user: z.union([z.literal("system"), z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Unknown user")]).optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    path: ["to"],
    message: "The end date is before the start date",
  });

export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** The filters from raw search parameters: blank values are "no filter"; invalid ones are reported and dropped. */
export function parseAuditFilters(params: Record<string, string | string[] | undefined>): {
  filters: AuditFilters;
  errors: Record<string, string>;
} {
  const raw: Record<string, string> = {};
  for (const key of ["action", "user", "from", "to"] as const) {
    const value = params[key];
    const single = Array.isArray(value) ? value[0] : value;
    if (single && single.trim() !== "") raw[key] = single.trim();
  }
  const parsed = auditFiltersSchema.safeParse(raw);
  if (parsed.success) return { filters: parsed.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !(key in errors)));
  const retry = auditFiltersSchema.safeParse(kept);
  return { filters: retry.success ? retry.data : {}, errors };
}

function filterWhere(filters: AuditFilters): Prisma.AuditEntryWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (filters.from) createdAt.gte = new Date(`${filters.from}T00:00:00Z`);
  // "to" is a whole day: everything before the next midnight (UTC).
  if (filters.to) createdAt.lt = new Date(new Date(`${filters.to}T00:00:00Z`).getTime() + 86_400_000);
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.user ? { userId: filters.user === "system" ? null : filters.user } : {}),
    ...(filters.from || filters.to ? { createdAt } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What a role may read of an entry's details. Acquirer accounts (MID, MCC, BINs, descriptor, the
 * credentials' fingerprint) are owners' (Settings → Acquirer accounts is theirs): anyone else sees
 * which account changed and at which processor, not how (security review 4, L4).
 */
export function detailsFor(role: UserRole, action: string, details: unknown): unknown {
  if (!action.startsWith("acquirer_account.") || roleCan(role, "acquirer_accounts:write")) return details;
  const record = isRecord(details) ? details : {};
  const account = [record.after, record.before, record].find((candidate) => isRecord(candidate) && typeof candidate.name === "string") as
    | Record<string, unknown>
    | undefined;
  return {
    account: account?.name ?? "(an acquirer account)",
    ...(typeof account?.processor === "string" ? { processor: account.processor } : {}),
    details: "shown to owners only",
  };
}

/** The merchant's audit log as `role` may read it, newest first, filtered, keyset-paginated by (createdAt, id). */
export async function listAuditEntries({
  merchantId,
  role,
  before,
  filters = {},
}: {
  merchantId: string;
  /** The reader's role: some details are for owners only (detailsFor). */
  role: UserRole;
  before?: string;
  filters?: AuditFilters;
}) {
  let cursor: { createdAt: Date; id: string } | undefined;
  if (before) {
    const [iso, id] = Buffer.from(before, "base64url").toString("utf8").split("|");
    const createdAt = new Date(iso ?? "");
    if (id && !Number.isNaN(createdAt.getTime())) cursor = { createdAt, id };
  }
  const entries = await db().auditEntry.findMany({
    where: {
      merchantId,
      AND: [
        filterWhere(filters),
        cursor ? { createdAt: { lte: cursor.createdAt }, OR: [{ createdAt: { lt: cursor.createdAt } }, { id: { lt: cursor.id } }] } : {},
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: AUDIT_PAGE_SIZE + 1,
    select: {
      id: true,
      action: true,
      target: true,
      details: true,
      createdAt: true,
      userId: true,
      actorEmail: true,
      actorName: true,
      actorRole: true,
    },
  });
  // The actor as the row recorded them (a removed user's entries still name them).
  const rows = entries
    .slice(0, AUDIT_PAGE_SIZE)
    .map(({ userId, ...entry }) => ({ ...entry, details: detailsFor(role, entry.action, entry.details), actorId: userId }));
  const last = rows[rows.length - 1];
  return {
    rows,
    next:
      entries.length > AUDIT_PAGE_SIZE && last
        ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString("base64url")
        : undefined,
  };
}
