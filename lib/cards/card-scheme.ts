// The card scheme from the leading digits (the IIN ranges of the schemes we accept).

export const CARD_SCHEMES = ["visa", "mastercard", "amex"] as const;
export type CardScheme = (typeof CARD_SCHEMES)[number];

interface SchemeRule {
  scheme: CardScheme;
  matches: (pan: string) => boolean;
  lengths: number[];
  securityCodeLength: number;
}

const RULES: SchemeRule[] = [
  { scheme: "amex", matches: (pan) => /^3[47]/.test(pan), lengths: [15], securityCodeLength: 4 },
  {
    scheme: "mastercard",
    matches: (pan) => {
      const two = Number(pan.slice(0, 2));
      const four = Number(pan.slice(0, 4));
      return (two >= 51 && two <= 55) || (four >= 2221 && four <= 2720);
    },
    lengths: [16],
    securityCodeLength: 3,
  },
  { scheme: "visa", matches: (pan) => pan.startsWith("4"), lengths: [13, 16, 19], securityCodeLength: 3 },
];

/** The scheme of a card number (or of its first 6+ digits), or undefined when we do not accept it. */
export function schemeFromPan(panOrBin: string): CardScheme | undefined {
  return RULES.find((rule) => rule.matches(panOrBin))?.scheme;
}

export function securityCodeLength(scheme: CardScheme): number {
  return RULES.find((rule) => rule.scheme === scheme)?.securityCodeLength ?? 3;
}

/** True when the number has a length the scheme issues. */
export function hasSchemeLength(pan: string, scheme: CardScheme): boolean {
  return RULES.find((rule) => rule.scheme === scheme)?.lengths.includes(pan.length) ?? false;
}
