// After the user changes their own second factor, their session version goes up, which ends every
// session of theirs: this one is then issued again with the new version, so the person who made the
// change stays signed in here while the other devices are signed out.
import { cookies } from "next/headers";
import { decode, encode } from "next-auth/jwt";
import { config } from "../env";
import { SESSION_MAX_AGE_SECONDS } from "./auth-options";

/** next-auth's cookie name: the `__Secure-` form when the back office is served over https. */
function sessionCookieName(): { name: string; secure: boolean } {
  const secure = config().backofficeBaseUrl.startsWith("https://");
  return { name: `${secure ? "__Secure-" : ""}next-auth.session-token`, secure };
}

export async function reissueSession(sessionVersion: number): Promise<void> {
  const { name, secure } = sessionCookieName();
  const jar = await cookies();
  const current = jar.get(name)?.value;
  if (!current) return;
  const secret = config().secrets.sessionSecret;
  const token = await decode({ token: current, secret });
  if (!token?.sub) return;
  const value = await encode({ token: { ...token, sv: sessionVersion }, secret, maxAge: SESSION_MAX_AGE_SECONDS });
  jar.set(name, value, { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: SESSION_MAX_AGE_SECONDS });
}
