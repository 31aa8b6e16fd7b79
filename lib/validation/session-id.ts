// The form of a session id in a /dynamic/{sessionid}/... path. Ours are 32 hex characters (lib/ids.ts);
// the rule accepts 1 to 64 letters and digits, as the session lookup always did. Anything else names
// no session and is refused before any work, counting or logging (security review 3, M1).
const SESSION_ID = /^[A-Za-z0-9]{1,64}$/;

export function isSessionIdFormat(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/** The refusal of a malformed session id, as JSON (the frames' endpoints answer JSON). */
export const MALFORMED_SESSION_ANSWER = { status: 404, body: JSON.stringify({ error: "not found" }) } as const;
