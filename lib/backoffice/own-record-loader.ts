// A back-office detail page's record (a payment, a dispute, a settlement): read once per request,
// shared by the page and its title (React's cache), as the signed-in user's merchant and the mode
// they see. Another merchant's or mode's record (NotFoundError) is the page not found, never a hint
// that it exists.
import { notFound } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "../auth/actor";
import { requireUser, type SessionUser } from "../auth/session";
import type { Mode } from "../mode";

export function ownRecordLoader<T>(read: (owner: { merchantId: string; mode: Mode }, id: string) => Promise<T>): (id: string) => Promise<{ user: SessionUser; record: T }> {
  return cache(async (id: string) => {
    const user = await requireUser();
    try {
      return { user, record: await read({ merchantId: user.merchantId, mode: user.mode }, id) };
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      throw error;
    }
  });
}
