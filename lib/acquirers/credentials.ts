// The credentials of an acquirer account: each module's zod schema (./<name>/credentials.ts), looked
// up by name. The connectors take a parsed object of their acquirer's type on every call, the account
// use cases validate input with the same schema before anything is sealed and saved, and the CLI and
// the back office build their forms from CREDENTIAL_FIELDS.
import type { z } from "zod";
import type { CredentialField } from "./contract";
import { ACQUIRERS, acquirerModule } from "./index";
import { ACQUIRER_NAMES, type AcquirerName } from "./names";

export type CredentialsOf<TName extends AcquirerName> = z.infer<(typeof ACQUIRERS)[TName]["credentials"]["schema"]>;

/** Credentials together with the processor they are for: what is sealed and what a connector call gets. */
export type ProcessorCredentials = { [TName in AcquirerName]: { processor: TName; credentials: CredentialsOf<TName> } }[AcquirerName];

/** Parses `input` as `processor`'s credentials (throws a ZodError naming the field). */
export function parseCredentials(processor: AcquirerName, input: unknown): ProcessorCredentials {
  return { processor, credentials: acquirerModule(processor).credentials.schema.parse(input) } as ProcessorCredentials;
}

/** The fields of each processor's credentials, in form order. */
export const CREDENTIAL_FIELDS: Readonly<Record<AcquirerName, readonly CredentialField[]>> = Object.fromEntries(
  ACQUIRER_NAMES.map((name) => [name, ACQUIRERS[name].credentials.fields]),
) as Record<AcquirerName, readonly CredentialField[]>;
