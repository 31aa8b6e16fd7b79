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

/**
 * ISO 4217 numeric code of each alphabetic code above (list one, as SIX publishes it; ANG and its
 * successor XCG share 532): what EMV 3-D Secure's AReq carries as purchaseCurrency.
 */
const NUMERIC_CODES: ReadonlyMap<string, string> = new Map(
  (
  "AED:784 AFN:971 ALL:008 AMD:051 ANG:532 AOA:973 ARS:032 AUD:036 AWG:533 AZN:944 BAM:977 BBD:052 BDT:050 BGN:975 " +
  "BHD:048 BIF:108 BMD:060 BND:096 BOB:068 BOV:984 BRL:986 BSD:044 BTN:064 BWP:072 BYN:933 BZD:084 CAD:124 CDF:976 " +
  "CHE:947 CHF:756 CHW:948 CLF:990 CLP:152 COP:170 COU:970 CRC:188 CUP:192 CVE:132 CZK:203 DJF:262 DKK:208 DOP:214 " +
  "DZD:012 EGP:818 ERN:232 ETB:230 EUR:978 FJD:242 FKP:238 GBP:826 GEL:981 GHS:936 GIP:292 GMD:270 GNF:324 GTQ:320 " +
  "GYD:328 HKD:344 HNL:340 HTG:332 HUF:348 IDR:360 ILS:376 INR:356 IQD:368 IRR:364 ISK:352 JMD:388 JOD:400 JPY:392 " +
  "KES:404 KGS:417 KHR:116 KMF:174 KPW:408 KRW:410 KWD:414 KYD:136 KZT:398 LAK:418 LBP:422 LKR:144 LRD:430 LSL:426 " +
  "LYD:434 MAD:504 MDL:498 MGA:969 MKD:807 MMK:104 MNT:496 MOP:446 MRU:929 MUR:480 MVR:462 MWK:454 MXN:484 MXV:979 " +
  "MYR:458 MZN:943 NAD:516 NGN:566 NIO:558 NOK:578 NPR:524 NZD:554 OMR:512 PAB:590 PEN:604 PGK:598 PHP:608 PKR:586 " +
  "PLN:985 PYG:600 QAR:634 RON:946 RSD:941 RUB:643 RWF:646 SAR:682 SBD:090 SCR:690 SDG:938 SEK:752 SGD:702 SHP:654 " +
  "SLE:925 SOS:706 SRD:968 SSP:728 STN:930 SVC:222 SYP:760 SZL:748 THB:764 TJS:972 TMT:934 TND:788 TOP:776 TRY:949 " +
  "TTD:780 TWD:901 TZS:834 UAH:980 UGX:800 USD:840 USN:997 UYI:940 UYU:858 UYW:927 UZS:860 VED:926 VES:928 VND:704 " +
  "VUV:548 WST:882 XAF:950 XCD:951 XCG:532 XOF:952 XPF:953 YER:886 ZAR:710 ZMW:967 ZWG:924 "
  )
    .trim()
    .split(" ")
    .map((pair): [string, string] => pair.split(":") as [string, string]),
);

/** Every alphabetic code the service takes (ISO 4217, in circulation), in alphabetical order. */
export const ISO_4217_CODES: readonly string[] = [...EXPONENTS.keys()].sort();

export function isCurrencyCode(code: string): boolean {
  return EXPONENTS.has(code);
}

/** Minor-unit exponent of an ISO 4217 code (2 for DKK: 250 is 2.50 kroner). */
export function currencyExponent(code: string): number {
  const exponent = EXPONENTS.get(code);
  if (exponent === undefined) throw new Error(`unknown currency ${code}`);
  return exponent;
}

/** ISO 4217 numeric code (three digits) of an alphabetic code the service takes; undefined for any other. */
export function currencyNumericCode(code: string): string | undefined {
  return EXPONENTS.has(code) ? NUMERIC_CODES.get(code) : undefined;
}
