// What the payment page says when the service refuses a capture, refund or void: one sentence a
// merchant can act on, the field it is about, and a link to where it is fixed. The merchant API's
// refusals (lib/errors.ts) name a parameter and a reason written for developers
// ("notificationurl: is required: no notification address is configured for this merchant");
// this table is the one place that turns each of them into words for people.
import { ApiError } from "../errors";
import { currencyExponent, isCurrencyCode } from "../validation/currency";
import type { ActionLink } from "./action-result";
import { FOLLOW_UP_KINDS, type FollowUpType } from "../payments/follow-ups/kinds";

/** A follow-up the payment page offers (lib/payments/follow-ups/kinds.ts). */
export type PaymentOperation = FollowUpType;

export interface OperationErrorDescription {
  message: string;
  /** The form field the message is about, shown next to it. */
  field?: "amount";
  link?: ActionLink;
}


const NOTIFICATION_SETTINGS: ActionLink = { href: "/backoffice/settings/notifications", label: "Settings → Notifications" };
const OPERATIONS: ActionLink = { href: "#operations", label: "the operations of this payment" };

function major(minor: string, currency: string): string {
  const exponent = isCurrencyCode(currency) ? currencyExponent(currency) : 2;
  const value = BigInt(minor);
  const divisor = 10n ** BigInt(exponent);
  const fraction = exponent > 0 ? `.${(value % divisor).toString().padStart(exponent, "0")}` : "";
  return `${value / divisor}${fraction} ${currency}`;
}

interface Rule {
  code: ApiError["code"];
  /** Matched against the error's description ("parameter: reason"). */
  pattern: RegExp;
  describe: (match: RegExpExecArray, context: { operation: PaymentOperation; currency: string; retryAfterSeconds?: number }) => OperationErrorDescription;
}

const RULES: Rule[] = [
  {
    code: "INVALID_PARAMETER",
    pattern: /^notificationurl: .*no notification address is configured/,
    describe: () => ({
      message: "No notification address is configured, so the result could not reach your systems: set one in Settings → Notifications, then try again.",
      link: NOTIFICATION_SETTINGS,
    }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^amount: exceeds the authorized amount left to capture \((\d+)\)/,
    describe: (match, { currency }) => ({ message: `The amount is more than the ${major(match[1]!, currency)} left to capture. Enter at most that, or leave the amount empty to capture it all.`, field: "amount" }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^amount: exceeds the captured amount left to refund \((\d+)\)/,
    describe: (match, { currency }) => ({ message: `The amount is more than the ${major(match[1]!, currency)} left to refund. Enter at most that, or leave the amount empty to refund it all.`, field: "amount" }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^paymentid: the authorized amount is already captured in full/,
    describe: () => ({ message: "Everything authorized is already captured, or a capture is still being processed: see the operations of this payment.", link: OPERATIONS }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^paymentid: the captured amount is already refunded in full/,
    describe: () => ({ message: "Everything captured is already refunded, or a refund is still being processed: see the operations of this payment.", link: OPERATIONS }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^paymentid: a captured payment cannot be voided/,
    describe: () => ({ message: "Part of this payment is captured, so it cannot be voided any more: refund it instead.", link: OPERATIONS }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^paymentid: the payment cannot be \w+ in its state \(([\w ]+)\)/,
    describe: (match, { operation }) => ({ message: `This payment cannot be ${FOLLOW_UP_KINDS[operation].past} while it is ${match[1]!.replace("_", " ")}: see the operations of this payment.`, link: OPERATIONS }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^processor: .*no processor is configured/,
    describe: () => ({ message: "No processor is configured for your account, so the request could not be sent. Ask your operator to set up a processor." }),
  },
  {
    code: "INVALID_PARAMETER",
    pattern: /^amount: (.+)$/,
    describe: (match) => ({ message: `The amount was refused: ${match[1]}.`, field: "amount" }),
  },
  {
    code: "RATE_LIMITED",
    pattern: /.*/,
    describe: (_match, { retryAfterSeconds }) => ({ message: `Too many requests at once: wait ${retryAfterSeconds ?? 1} seconds and try again.` }),
  },
  {
    code: "IDEMPOTENCY_IN_PROGRESS",
    pattern: /.*/,
    describe: () => ({ message: "The same request is still being processed: wait a moment and reload the page.", link: OPERATIONS }),
  },
];

/** The sentence for a refusal of the merchant API's use cases; anything the table does not know is said plainly. */
export function describeOperationError(error: ApiError, context: { operation: PaymentOperation; currency: string }): OperationErrorDescription {
  for (const rule of RULES) {
    if (rule.code !== error.code) continue;
    const match = rule.pattern.exec(error.message);
    if (match) return rule.describe(match, { ...context, retryAfterSeconds: error.retryAfterSeconds });
  }
  return { message: `The ${context.operation} was refused: ${error.message}.` };
}
