// next-auth configuration of the back office: the credentials provider (email, password and the
// optional one-time code) and signed JWT session cookies that expire. The token carries only the
// user id; every request loads the user again (lib/auth/session.ts), so a removed user or a changed
// role takes effect at once.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { config } from "../env";
import { authenticateUser, SignInError } from "./authenticate-user";

/** A signed-in session lasts 8 hours of activity and is refreshed at most every 15 minutes. */
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
export const SIGN_IN_PATH = "/backoffice/sign-in";

type HeaderBag = Record<string, string | string[] | undefined> | Headers | undefined;

function header(headers: HeaderBag, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The client address as the nearest proxy reports it (the service runs behind one in production). */
export function clientIp(headers: HeaderBag): string | null {
  const forwarded = header(headers, "x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || header(headers, "x-real-ip") || null;
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
            return { id: user.id, email: user.email, name: user.name };
          } catch (error) {
            // next-auth passes the message of an error thrown here to the client as `error`.
            if (error instanceof SignInError) throw new Error(error.code);
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      async session({ session, token }) {
        return { ...session, userId: token.sub };
      },
    },
  };
}
