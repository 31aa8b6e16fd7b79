/**
 * Where to go after signing in: only a path of the back office on this site, never another origin
 * (an open redirect would make the sign-in page a phishing tool) and never the sign-in page itself.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) return "/backoffice";
  try {
    const url = new URL(candidate, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return "/backoffice";
    const isBackoffice = url.pathname === "/backoffice" || url.pathname.startsWith("/backoffice/");
    if (!isBackoffice || url.pathname.startsWith("/backoffice/sign-in")) return "/backoffice";
    return `${url.pathname}${url.search}`;
  } catch {
    return "/backoffice";
  }
}
