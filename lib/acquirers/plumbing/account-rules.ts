// Account-field rules more than one acquirer shares (their modules' account rules use them).

/** EMV 3DS acquirerMerchantID: 1 to 35 printable ASCII characters, no leading or trailing space. */
export function emvAcquirerMerchantIdProblem(value: string): string | undefined {
  return /^[\x21-\x7E](?:[\x20-\x7E]{0,33}[\x21-\x7E])?$/.test(value) ? undefined : "must be 1 to 35 printable ASCII characters";
}

/** A descriptor of `min` to `max` characters, as `acquirer` says it in the message. */
export function descriptorLengthProblem(descriptor: string, min: number, max: number, acquirer: string): string | undefined {
  return descriptor.length < min || descriptor.length > max ? `must be ${min} to ${max} characters for ${acquirer}` : undefined;
}

/** An acquirer that takes any currency the account names. */
export function anyCurrencyAccepted(): undefined {
  return undefined;
}
