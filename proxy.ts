// Next.js proxy (the former middleware): runs before Next matches a route. Its one job: a path
// whose segments are not valid UTF-8 once percent-decoded (`/api/%FF/capture`, `%C0%AF`) makes
// Next's route matcher throw while decoding the params, which it answers with a plain-text 500
// before any of our code runs. Refuse such paths here with the spec's 400 body and a request id.
import { NextResponse, type NextRequest } from "next/server";
import { badlyEncodedPathAnswer } from "./lib/api/badly-encoded-path";

export function proxy(request: NextRequest): NextResponse | undefined {
  return badlyEncodedPathAnswer(request.nextUrl.pathname);
}

export const config = {
  // Only the routes that take path parameters; static files and the rest never reach the proxy.
  // Not /api/inngest: it has no path parameters, and the proxy would cap its bodies at
  // proxyClientMaxBodySize (next.config.mjs), cutting a large step state short.
  matcher: ["/api/((?!inngest).*)", "/dynamic/:path*", "/backoffice/:path*", "/sandbox/:path*"],
};
