// Size of what a cardholder's browser downloads for the hosted fields (npm run bench -- hosted-fields):
// dynamic.js and every field page exactly as the service renders them (bundle, inline stylesheet,
// configuration), raw, gzip and brotli bytes. No server is needed: the same functions that answer
// the requests render them here. Budgets (issue 6: "stay small"): each at most 48 kB raw and 16 kB
// gzip; the run fails when one is over. Results go to bench-results/hosted-fields.json.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { browserBundle } from "../../lib/cardholder/browser-bundles";
import { challengePageHtml, controllerPageHtml, fieldPageHtml, newNonce, scriptJson } from "../../lib/cardholder/frame-page";
import { FIELD_KINDS, type ScriptConfig } from "../../lib/cardholder/protocol";

const BUDGET = { raw: 48 * 1024, gzip: 16 * 1024 };
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.resolve("bench-results");
const SESSION_ID = "0123456789abcdef0123456789abcdef";
const ORIGIN = "https://shop.example";

interface Measurement {
  name: string;
  raw: number;
  gzip: number;
  brotli: number;
}

function measure(name: string, body: string): Measurement {
  const bytes = Buffer.from(body);
  return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
}

async function main(): Promise<void> {
  const results: Measurement[] = [];
  const dynamic = await browserBundle("dynamic");
  const scriptConfig: ScriptConfig = {
    sessionid: SESSION_ID,
    origin: "https://pay.example",
    binding: `${Buffer.from(ORIGIN).toString("base64url")}.${"x".repeat(43)}`,
    elements: {
      pan: "pan",
      expmonth: "expmonth",
      expyear: "expyear",
      securitycode: "securitycode",
      ccsingle: "ccsingle",
      challenge: "challenge",
    },
    expiresInMs: 900_000,
    onBehalf: false,
  };
  results.push(measure("dynamic.js", `(function(){${dynamic.code}\nCPSDynamic.boot(${scriptJson(scriptConfig)});})();\n`));

  const field = await browserBundle("field");
  for (const kind of FIELD_KINDS) {
    const config = { sessionid: SESSION_ID, field: kind, parentOrigin: ORIGIN, expiresInMs: 900_000 };
    results.push(measure(kind, fieldPageHtml({ kind, config, styling: {}, script: field.code, nonce: newNonce() })));
  }
  const controller = await browserBundle("controller");
  results.push(
    measure(
      "controller",
      controllerPageHtml({
        config: { sessionid: SESSION_ID, field: "controller", parentOrigin: ORIGIN },
        script: controller.code,
        nonce: newNonce(),
      }),
    ),
  );
  const challenge = await browserBundle("challenge");
  results.push(
    measure(
      "challenge",
      challengePageHtml({
        config: { sessionid: SESSION_ID, field: "challenge", parentOrigin: ORIGIN, paymentid: SESSION_ID },
        acsUrl: "https://acs.example/challenge",
        formFields: { creq: "x".repeat(300) },
        script: challenge.code,
        nonce: newNonce(),
      }),
    ),
  );

  console.log("page            raw B   gzip B  brotli B");
  for (const result of results) {
    console.log(
      `${result.name.padEnd(14)} ${String(result.raw).padStart(7)} ${String(result.gzip).padStart(8)} ${String(result.brotli).padStart(9)}`,
    );
  }
  const over = results.filter((result) => result.raw > BUDGET.raw || result.gzip > BUDGET.gzip);
  writeFileSync(
    path.join(RESULTS_DIR, "hosted-fields.json"),
    JSON.stringify({ budget: BUDGET, results, over: over.map((result) => result.name) }, null, 2),
  );
  if (over.length > 0) {
    console.error(`over budget (${BUDGET.raw} B raw / ${BUDGET.gzip} B gzip): ${over.map((result) => result.name).join(", ")}`);
    process.exit(1);
  }
  console.log(`all within budget (${BUDGET.raw} B raw, ${BUDGET.gzip} B gzip)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
