import { db } from "../../db";

export async function listTeam({ merchantId }: { merchantId: string }) {
  return db().user.findMany({
    where: { merchantId },
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, role: true, totpEnabledAt: true, lastSignInAt: true, createdAt: true },
  });
}
