// GET/POST /api/auth/*: next-auth's sign-in, sign-out, session and CSRF endpoints for the back office.
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/auth-options";
import { BodyTooLargeError, payloadTooLargeResponse, readLimitedBody } from "@/lib/http/read-limited-body";

/** Sign-in and sign-out forms are a few hundred bytes; next-auth would read any size before checking anything. */
const MAX_BODY_BYTES = 16 * 1024;

async function handler(request: NextRequest, context: { params: Promise<{ nextauth: string[] }> }) {
  if (request.method === "POST") {
    let body: Buffer;
    try {
      body = await readLimitedBody(request, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return payloadTooLargeResponse(MAX_BODY_BYTES);
      throw error;
    }
    request = new NextRequest(request.url, { method: "POST", headers: request.headers, body: Uint8Array.from(body) });
  }
  return NextAuth(authOptions())(request, context);
}

export { handler as GET, handler as POST };
