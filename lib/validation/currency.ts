// ISO 4217 alpha-3 currency codes in circulation and their minor-unit exponents. Amounts are always
// integers of minor units; the exponent tells how many of them make one major unit.

/** Codes whose exponent is not 2. */
const EXPONENT_EXCEPTIONS: Record<string, number> = {
  BHD: 3,
  BIF: 0,
  CLF: 4,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  UYW: 4,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

const TWO_DECIMAL_CODES =
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG";

const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...TWO_DECIMAL_CODES.split(" ").map((code): [string, number] => [code, 2]),
  ...Object.entries(EXPONENT_EXCEPTIONS),
]);

export function isCurrencyCode(code: string): boolean {
  return EXPONENTS.has(code);
}

/** Minor-unit exponent of an ISO 4217 code (2 for DKK: 250 is 2.50 kroner). */
export function currencyExponent(code: string): number {
  const exponent = EXPONENTS.get(code);
  if (exponent === undefined) throw new Error(`unknown currency ${code}`);
  return exponent;
}
