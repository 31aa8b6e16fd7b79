// The credentials of an acquirer account: each module's zod schema (./<name>/credentials.ts), looked
// up by name. The connectors take a parsed object of their acquirer's type on every call, the account
// use cases validate input with the same schema before anything is sealed and saved, and the CLI and
// the back office build their forms from CREDENTIAL_FIELDS.
import type { z } from "zod";
import type { CredentialField } from "./contract";
import { ACQUIRERS } from "./index";
import { ACQUIRER_NAMES, type AcquirerName } from "./names";
import { platformView } from "./platforms";

export type CredentialsOf<TName extends AcquirerName> = z.infer<(typeof ACQUIRERS)[TName]["credentials"]["schema"]>;

/**
 * Credentials together with the processor they are for, and the platform when it is not the
 * processor's first (decision 0193): what is sealed and what a connector call gets.
 */
export type ProcessorCredentials = {
  [TName in AcquirerName]: { processor: TName; credentials: CredentialsOf<TName>; platform?: string };
}[AcquirerName];

/** Parses `input` as `processor`'s credentials on `platform` (throws a ZodError naming the field, UnknownPlatformError). */
export function parseCredentials(processor: AcquirerName, input: unknown, platform?: string | null): ProcessorCredentials {
  const credentials = platformView(processor, platform).credentials.schema.parse(input);
  return (platform ? { processor, credentials, platform } : { processor, credentials }) as ProcessorCredentials;
}

/** The credential fields of `processor` on `platform`, in form order. */
export function credentialFieldsOf(processor: AcquirerName, platform?: string | null): readonly CredentialField[] {
  return platformView(processor, platform).credentials.fields;
}

/** The fields of each processor's credentials, in form order. */
export const CREDENTIAL_FIELDS: Readonly<Record<AcquirerName, readonly CredentialField[]>> = Object.fromEntries(
  ACQUIRER_NAMES.map((name) => [name, ACQUIRERS[name].credentials.fields]),
) as Record<AcquirerName, readonly CredentialField[]>;
