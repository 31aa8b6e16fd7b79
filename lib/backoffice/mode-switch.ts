// The back office's mode switch: which mode its pages show and its actions act in (a cookie of the
// browser, not a setting of the account). After a switch the user lands on the same page, or on its
// list when the page showed one record (a test payment does not exist in live mode).
import { safeCallbackPath } from "../auth/safe-callback-path";

/** Pages of one record, by their list: /backoffice/payments/<id> goes back to /backoffice/payments. */
const RECORD_PAGES = [/^(\/backoffice\/payments)\/[^/]+$/, /^(\/backoffice\/developers\/logs)\/[^/]+$/];

/** Where to go after switching from `path` (a back-office path; anything else: the overview). */
export function modeSwitchTarget(path: string | undefined): string {
  const safe = safeCallbackPath(path);
  const pathname = safe.split("?")[0]!;
  if (pathname === "/backoffice/payments/export") return "/backoffice/payments";
  for (const page of RECORD_PAGES) {
    const match = page.exec(pathname);
    if (match) return match[1]!;
  }
  return safe;
}
