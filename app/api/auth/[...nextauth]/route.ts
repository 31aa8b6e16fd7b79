// GET/POST /api/auth/*: next-auth's sign-in, sign-out, session and CSRF endpoints for the back office.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/auth-options";

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(request, context);
}

export { handler as GET, handler as POST };
