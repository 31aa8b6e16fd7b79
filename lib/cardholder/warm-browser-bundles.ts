// Background service: loads the hosted-field browser bundles when the server starts (from the build
// output in production, with esbuild elsewhere), so the first cardholder does not wait, and a
// missing or broken build shows in the server log at once.
import { BROWSER_BUNDLES, browserBundle, type BundleName } from "./browser-bundles";
import { log } from "../observability/logger";

export async function warmBrowserBundles(): Promise<void> {
  const names = Object.keys(BROWSER_BUNDLES) as BundleName[];
  const results = await Promise.allSettled(names.map((name) => browserBundle(name)));
  const failed = names.filter((_, index) => results[index]?.status === "rejected");
  if (failed.length > 0) {
    // Not fatal for the rest of the service: they are tried again on the next request.
    log("cardholder").error(
      `could not load the hosted-field scripts (${failed.join(", ")}): the card fields will not load until this is fixed`,
    );
  }
}
