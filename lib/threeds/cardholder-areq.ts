// The cardholder part of the AReq (EMV 3DS 2.2, 3dsecure.io _static/areq_220.html): cardholderName
// and email, which Visa requires and Mastercard requires "unless market restrictions prevent it",
// from what the payment knows of its customer. A value that does not fit the reference's format is
// left out rather than sent malformed (the 3DS Server would refuse the whole AReq with Erro 203) or
// failing the payment. These values are personal data: they go to the 3DS Server only, never to logs.
import type { AReq } from "./messages";

/** What the payment knows of its cardholder (the spec's `customer`: firstname, surename, email). */
export interface CardholderFacts {
  firstName?: string | null;
  surname?: string | null;
  email?: string | null;
}

type CardholderFields = Pick<AReq, "cardholderName" | "email">;

const LETTERS: Record<string, string> = {
  Ø: "O",
  ø: "o",
  Æ: "AE",
  æ: "ae",
  ß: "ss",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Þ: "Th",
  þ: "th",
};

/**
 * cardholderName: 2-45 characters, and "only ASCII characters are allowed" in 2.1.0 and 2.2.0
 * (auth.rst). Accents are taken off (é → e, å → a) and letters without a decomposition spelt out
 * (ø → o, æ → ae, ß → ss); a name with other non-ASCII letters (Cyrillic, CJK) is left out. A longer
 * name is cut at 45 characters.
 */
export function cardholderNameForAReq(firstName?: string | null, surname?: string | null): string | undefined {
  const joined = [firstName, surname]
    .map((part) => part?.trim() ?? "")
    .filter(Boolean)
    .join(" ");
  const ascii = joined
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[ØøÆæßŁłĐđÞþ]/g, (letter) => LETTERS[letter] ?? letter)
    .replace(/\s+/g, " ");
  if (!/^[\x20-\x7e]*$/.test(ascii)) return undefined;
  const name = ascii.slice(0, 45).trim();
  return name.length >= 2 ? name : undefined;
}

/**
 * email: "Format: email; Max length: 254" (areq_220, specification_common.rst). The reference names no
 * pattern, so only the common shape any validator takes is sent (letters, digits, _ + - and single
 * dots before the @, a dotted domain with a 2-63 letter top level): an address a 3DS Server might
 * refuse would cost the whole AReq (Erro 203).
 */
const EMAIL = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function emailForAReq(email?: string | null): string | undefined {
  const value = email?.trim();
  return value && value.length <= 254 && EMAIL.test(value) ? value : undefined;
}

/** The cardholder fields of an AReq: only those the payment has and that fit their format. */
export function cardholderAReqFields(facts: CardholderFacts): CardholderFields {
  const fields: CardholderFields = {
    cardholderName: cardholderNameForAReq(facts.firstName, facts.surname),
    email: emailForAReq(facts.email),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as CardholderFields;
}
