// Secrets for local runs: generated once into DATA_DIR/secrets.json (mode 0600) so that a fresh
// clone starts with nothing to configure. Production must configure them (lib/env.ts enforces it).
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const localSecretsSchema = z.object({
  sessionSecret: z.string().min(32),
  cardDataKey: z.string().refine((value) => Buffer.from(value, "base64").length === 32),
  apiKeySecret: z.string().min(32),
  /** Password of the embedded database's loopback port (lib/db/embedded-db-auth.ts); added on first use. */
  embeddedDbPassword: z.string().min(24).optional(),
});

export type LocalSecrets = z.infer<typeof localSecretsSchema>;

export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.resolve(dataDir, "secrets.json");
  if (existsSync(file)) {
    const parsed = localSecretsSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) {
      throw new Error(`${file} is not a valid secrets file; fix it or set SESSION_SECRET, CARD_DATA_KEY and API_KEY_SECRET`);
    }
    return parsed.data;
  }
  const secrets: LocalSecrets = {
    sessionSecret: randomBytes(32).toString("base64url"),
    cardDataKey: randomBytes(32).toString("base64"),
    apiKeySecret: randomBytes(32).toString("base64url"),
  };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Write a temporary file, then hard-link it into place: link fails if another process won the
  // race, and then both use the winner's secrets. Nobody ever reads half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateLocalSecrets(dataDir);
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** The embedded database's password from DATA_DIR/secrets.json, or undefined (for processes that connect to it). */
export function readEmbeddedDbPassword(dataDir: string): string | undefined {
  const file = path.resolve(dataDir, "secrets.json");
  if (!existsSync(file)) return undefined;
  return localSecretsSchema.safeParse(JSON.parse(readFileSync(file, "utf8"))).data?.embeddedDbPassword;
}

/**
 * The embedded database's password, generated into the secrets file on first use (files written by
 * earlier versions get it added). Called only by the process that holds the data folder's lock, so
 * two processes never add different passwords. The file is replaced by a rename, never half-written.
 */
export function loadOrCreateEmbeddedDbPassword(dataDir: string): string {
  const file = path.resolve(dataDir, "secrets.json");
  const secrets: LocalSecrets = loadOrCreateLocalSecrets(dataDir);
  if (secrets.embeddedDbPassword) {
    chmodSync(file, 0o600);
    return secrets.embeddedDbPassword;
  }
  const embeddedDbPassword = randomBytes(24).toString("base64url");
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ ...secrets, embeddedDbPassword }, null, 2), { mode: 0o600 });
  renameSync(temporary, file);
  return embeddedDbPassword;
}
