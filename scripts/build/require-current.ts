// Exits 0 when what `npm run build` made (the Next build in NEXT_DIST_DIR or .next, and dist/) is
// newer than every file it is made from; otherwise prints why and exits 1. Used by scripts/test.sh
// (build once, before the suites) and .ci/run (no step may run on a stale build).
// Usage: npx tsx scripts/build/require-current.ts [--quiet]
import { checkProductionBuild } from "./freshness.mjs";

const check = checkProductionBuild();
if (!check.current && !process.argv.includes("--quiet")) console.error(`the production build is not current: ${check.reason}; run npm run build`);
process.exit(check.current ? 0 : 1);
