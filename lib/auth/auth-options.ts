// next-auth configuration of the back office: the credentials provider (email, password and the
// optional one-time code) and signed JWT session cookies that expire. The token carries only the
// user id and the user's session version; every request loads the user again (lib/auth/session.ts)
// and refuses a token whose version is no longer the user's, so sign-out, a role change, a removed
// user or a new TOTP secret ends the user's other sessions at once.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "../db";
import { config } from "../env";
import { clientIp } from "../http/client-ip";
import { log } from "../observability/logger";
import { authenticateUser, SignInError } from "./authenticate-user";
import type { SignInErrorCode } from "./sign-in-errors";
import { endBackofficeSession, startBackofficeSession, touchBackofficeSession } from "./backoffice-session";

/**
 * The cookie lasts at most 8 hours; the session row behind it (./backoffice-session.ts) also ends
 * after 15 minutes without a request.
 */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
export const SIGN_IN_PATH = "/backoffice/sign-in";

type HeaderBag = Record<string, string | string[] | undefined> | Headers | undefined;

/** The session version of a user now, or null when the user is gone. */
async function currentSessionVersion(userId: string): Promise<number | null> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return user?.sessionVersion ?? null;
}

export function authOptions(): NextAuthOptions {
  return {
    secret: config().secrets.sessionSecret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 15 * 60 },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          totp: { label: "Authentication code", type: "text" },
        },
        async authorize(credentials, request) {
          try {
            const user = await authenticateUser({
              email: credentials?.email ?? "",
              password: credentials?.password ?? "",
              totp: credentials?.totp,
              ipAddress: clientIp(request?.headers as HeaderBag),
            });
            return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
          } catch (error) {
            // next-auth passes the message of an error thrown here to the client as `error`: only a
            // sign-in code may go there, never a database's message with our file paths and code.
            if (error instanceof SignInError) throw new Error(error.code);
            log("auth").error({ err: error, event: "auth.sign_in_failed" }, "a sign-in failed on our side; the user is asked to try again");
            throw new Error("UNAVAILABLE" satisfies SignInErrorCode);
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
          // The session row: idle time-out and maximum age are kept there (./backoffice-session.ts).
          token.sid = await startBackofficeSession({ userId: user.id });
          return token;
        }
        // Every later use of the cookie: a session issued before the user's last sign-out, role
        // change or TOTP change (or for a removed user) comes back empty, so it signs nobody in; so
        // does one idle for 15 minutes or older than 8 hours (or from before session rows).
        if (!token.sub || typeof token.sv !== "number" || typeof token.sid !== "string") return {};
        if ((await currentSessionVersion(token.sub)) !== token.sv) return {};
        if (!(await touchBackofficeSession({ id: token.sid, userId: token.sub }))) return {};
        return token;
      },
      async session({ session, token }) {
        return { ...session, userId: token.sub, sessionVersion: token.sv };
      },
    },
    events: {
      // Signing out ends every session of the user, on every device, not only this cookie.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endBackofficeSession({ id: token.sid });
        if (token?.sub) await db().user.updateMany({ where: { id: token.sub }, data: { sessionVersion: { increment: 1 } } });
      },
    },
  };
}
