// Card data held in memory for one call. The PAN and security code sit in private fields so that
// JSON.stringify, console.log, util.inspect and error serialisers only ever see the masked form.
import { inspect } from "node:util";
import { truncateCardNumber } from "./truncate-card-number";

export interface CardDetailsInput {
  pan: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /** Absent for stored cards (the security code is never stored) and for payouts. */
  securityCode?: string;
  holderName?: string;
}

export class CardDetails {
  readonly #pan: string;
  readonly #securityCode: string | undefined;
  readonly expMonth: number;
  readonly expYear: number;
  readonly holderName: string | undefined;

  constructor(input: CardDetailsInput) {
    const pan = input.pan.replace(/[\s-]/g, "");
    if (!/^\d{8,19}$/.test(pan)) throw new Error("card number must be 8 to 19 digits");
    if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) throw new Error("expiry month must be 1 to 12");
    if (!Number.isInteger(input.expYear) || input.expYear < 2000 || input.expYear > 2099)
      throw new Error("expiry year must have four digits");
    if (input.securityCode !== undefined && !/^\d{3,4}$/.test(input.securityCode)) throw new Error("security code must be 3 or 4 digits");
    this.#pan = pan;
    this.#securityCode = input.securityCode;
    this.expMonth = input.expMonth;
    this.expYear = input.expYear;
    this.holderName = input.holderName;
  }

  /** The full card number. Only connectors building an acquirer request should call this. */
  revealPan(): string {
    return this.#pan;
  }

  revealSecurityCode(): string | undefined {
    return this.#securityCode;
  }

  get bin(): string {
    return this.#pan.slice(0, 6);
  }

  get last4(): string {
    return this.#pan.slice(-4);
  }

  /** The same card without its security code (what a payout or a stored card may carry). */
  withoutSecurityCode(): CardDetails {
    return new CardDetails({ pan: this.#pan, expMonth: this.expMonth, expYear: this.expYear, holderName: this.holderName });
  }

  toString(): string {
    return `CardDetails(${truncateCardNumber(this.#pan)}, ${String(this.expMonth).padStart(2, "0")}/${this.expYear})`;
  }

  toJSON(): { bin: string; last4: string; expMonth: number; expYear: number } {
    return { bin: this.bin, last4: this.last4, expMonth: this.expMonth, expYear: this.expYear };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
