// Background service: builds the hosted-field browser bundles when the server starts, so the first
// cardholder does not wait for esbuild, and a broken build shows in the server log at once.
import { BROWSER_BUNDLES, browserBundle, type BundleName } from "./browser-bundles";

export async function warmBrowserBundles(): Promise<void> {
  const names = Object.keys(BROWSER_BUNDLES) as BundleName[];
  const results = await Promise.allSettled(names.map((name) => browserBundle(name)));
  const failed = names.filter((_, index) => results[index]?.status === "rejected");
  if (failed.length > 0) {
    // Not fatal for the rest of the service: the bundles are built again on the next request.
    console.error(
      `[cardholder] could not build the hosted-field scripts (${failed.join(", ")}): the card fields will not load until this is fixed`,
    );
  }
}
