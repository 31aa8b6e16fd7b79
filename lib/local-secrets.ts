// Secrets for local runs: generated once into DATA_DIR/secrets.json (mode 0600) so that a fresh
// clone starts with nothing to configure. Production must configure them (lib/env.ts enforces it).
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const localSecretsSchema = z.object({
  sessionSecret: z.string().min(32),
  cardDataKey: z.string().refine((value) => Buffer.from(value, "base64").length === 32),
  apiKeySecret: z.string().min(32),
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
  mkdirSync(path.dirname(file), { recursive: true });
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
