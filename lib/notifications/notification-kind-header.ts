// Every notification says what it is in a header, so a receiver can route it before parsing the body
// (the spec's bodies carry no type), and which mode it belongs to in the header beside it (test or
// live; also the body's `mode` member). The values are stable and documented in the README and the
// OpenAPI document.
import type { NotificationKind } from "../generated/prisma/enums";
import type { Mode } from "../mode";

export const NOTIFICATION_KIND_HEADER = "X-CPS-Notification-Kind";
export const NOTIFICATION_MODE_HEADER = "X-CPS-Notification-Mode";

const HEADER_VALUES: Record<NotificationKind, string> = {
  completion: "completion",
  mit: "mit",
  capture: "capture",
  refund: "refund",
  void: "void",
  payout: "payout",
  // Stored before capture, refund and void had kinds of their own.
  operation: "operation",
  payment_details: "payment-details",
  lifecycle: "lifecycle",
  test: "test",
  dispute: "dispute",
};

/** The kind as receivers see it in the header (`payment-details`): the one spelling shown to people. */
export function kindHeaderValue(kind: string): string {
  return HEADER_VALUES[kind as NotificationKind] ?? kind;
}

export function notificationKindHeader(kind: NotificationKind, mode: Mode): Record<string, string> {
  return { [NOTIFICATION_KIND_HEADER]: HEADER_VALUES[kind], [NOTIFICATION_MODE_HEADER]: mode };
}
