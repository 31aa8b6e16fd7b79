// The kinds of follow-up (operations on an authorized payment, each with its own merchant-API path
// and notification): the one table that says what each kind is. Every list of the kinds derives from
// it (request handling, the job, the totals and their SQL, the stalled-work and reconciliation
// sweeps, the OpenAPI paths and webhooks, the back office, the sandboxes' ledgers), and the
// connector contract's list of follow-up operations (lib/acquirers/contract.ts) is held equal to it
// by its type. A new kind is an entry here, its rule file beside it, an optional connector method,
// a route and the enum values of its migration (lib/acquirers/README.md says how).
import { Prisma } from "../../db";
import type { AcquirerCapabilities, FollowUpOperation } from "../../acquirers/contract";
import type { NotificationKind } from "../../generated/prisma/enums";
import type { AmountRule } from "./amount-rule";
import { captureAmountRule } from "./capture";
import { refundAmountRule } from "./refund";
import { voidAmountRule } from "./void";

export interface FollowUpKind {
  /** What may be asked: the amount it takes, or INVALID_PARAMETER naming the broken rule. */
  amountRule: AmountRule;
  /** The connector method that performs it (lib/routing/follow-up.ts calls it with the kind's request). */
  connectorMethod: FollowUpOperation;
  /** The kind of its result's notification (the X-CPS-Notification-Kind header). */
  notificationKind: NotificationKind;
  /** What an acquirer must offer for it at all; absent: every acquirer does. */
  capability?: keyof AcquirerCapabilities;
  /** The words for it done ("the payment cannot be captured ..."). */
  past: string;
  /** The section of the spec (docs/card-payment-service.md) that defines its request. */
  specSection: string;
}

export const FOLLOW_UP_KINDS = {
  capture: { amountRule: captureAmountRule, connectorMethod: "capture", notificationKind: "capture", past: "captured", specSection: "4.4" },
  refund: { amountRule: refundAmountRule, connectorMethod: "refund", notificationKind: "refund", past: "refunded", specSection: "4.5" },
  void: { amountRule: voidAmountRule, connectorMethod: "void", notificationKind: "void", past: "voided", specSection: "4.6" },
} as const satisfies Record<FollowUpOperation, FollowUpKind>;

export type FollowUpType = keyof typeof FOLLOW_UP_KINDS;

/** The kinds, in the table's order. */
export const FOLLOW_UP_TYPES = Object.keys(FOLLOW_UP_KINDS) as [FollowUpType, ...FollowUpType[]];

export function isFollowUpType(value: string): value is FollowUpType {
  return Object.hasOwn(FOLLOW_UP_KINDS, value);
}

/**
 * The kinds as a list of SQL literals, for `"type" IN (${FOLLOW_UP_TYPES_SQL})` in raw statements:
 * the same text a hand-written list would be (so the enum column is compared with enum literals and
 * its indexes apply), made from this table's keys, which are checked to be plain words.
 */
export const FOLLOW_UP_TYPES_SQL = Prisma.raw(
  FOLLOW_UP_TYPES.map((type) => {
    if (!/^[a-z_]+$/.test(type)) throw new Error(`follow-up kind ${type} is not a plain word`);
    return `'${type}'`;
  }).join(", "),
);
