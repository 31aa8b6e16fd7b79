// npm run sandbox (node dist/sandbox.js after a build): the three acquirer sandboxes and the 3-D Secure sandbox on their own, so the test
// mode of services elsewhere can use them: FINARO_TEST_BASE_URL / CLEARHAUS_TEST_BASE_URL /
// BAMBORA_TEST_BASE_URL / THREEDS_TEST_SERVER_URL (live mode never uses a sandbox; a test that makes one
// stand in for an acquirer's production endpoint sets *_BASE_URL itself).
// Ports: --finaro N --clearhaus N --bambora N --threeds N (default 4101-4104).
// By default the Clearhaus and Finaro sandboxes answer as their public references say and nothing
// more (docs/acquirers.md); --extensions adds the sandbox-only conveniences (scenario cards, look-ups
// by our reference, card-update feeds). A service that reaches them through a configured base URL
// treats them as the real gateway and never uses those extensions.
import { parseArgs } from "node:util";
import { startSandboxes } from "../lib/sandboxes/acquirers/start-sandboxes";
import { FINARO_SANDBOX_PATH } from "../lib/sandboxes/acquirers/finaro";
import { CLEARHAUS_SANDBOX_SIGNING_PARTNERS } from "../lib/sandboxes/acquirers/clearhaus/accounts";
import { sandboxAccountInput } from "../lib/sandboxes/sandbox-merchant-accounts";
import { ACQUIRER_NAMES, type AcquirerName } from "../lib/acquirers/names";
import { THREEDS_SANDBOX_API_KEY } from "../lib/sandboxes/threeds/directory-server";
import { SANDBOXES } from "../lib/sandboxes/acquirers";
import { reportingOf } from "../lib/acquirers/reporting";

const { values } = parseArgs({
  options: {
    finaro: { type: "string", default: "4101" },
    clearhaus: { type: "string", default: "4102" },
    bambora: { type: "string", default: "4103" },
    threeds: { type: "string", default: "4104" },
    extensions: { type: "boolean", default: false },
  },
});

const running = await startSandboxes({
  register: false,
  extensions: values.extensions,
  ports: {
    finaro: Number(values.finaro),
    clearhaus: Number(values.clearhaus),
    bambora: Number(values.bambora),
    threeds: Number(values.threeds),
  },
});
const { urls } = running;
const partner = CLEARHAUS_SANDBOX_SIGNING_PARTNERS[0]!;
const cli = process.argv[1]?.endsWith(".js") ? "node dist/cli.js" : "npm run -s cli --";

/** The operator's command that gives a merchant the sandbox's first test account at `processor`. */
function accountsAddLine(processor: AcquirerName): string {
  const input = sandboxAccountInput(processor, 0) as { acquirerMerchantId: string; mcc: string; country: string; currencies: string; credentials: Record<string, string> };
  // The credentials on standard input, as for a real acquirer's (the CLI takes no secret as an argument).
  return `echo '${JSON.stringify(input.credentials)}' | ${cli} accounts add --merchant <merchantid> --processor ${processor} --name "${processor} sandbox" --acquirer-merchant-id ${input.acquirerMerchantId} --mcc ${input.mcc} --merchant-name "<shop name>" --country ${input.country} --descriptor "<shop name>" --currencies ${input.currencies} --mode test --credentials-file -`;
}

/** The reporting API sandboxes (disputes, settlements): their test endpoint variable each. */
const REPORTING = ACQUIRER_NAMES.flatMap((processor) => {
  const reporting = reportingOf(processor);
  const url = running.reportingUrls[processor];
  return reporting && url && SANDBOXES[processor].reporting ? [{ processor, variable: reporting.endpointVariables.test, url, label: reporting.label }] : [];
});

console.log(`Sandboxes running (${values.extensions ? "with their sandbox-only extensions" : "strict: the references only"}).
Point the service's test mode at them with (every web and worker process the same):

FINARO_TEST_BASE_URL=${urls.finaro}${FINARO_SANDBOX_PATH}
CLEARHAUS_TEST_BASE_URL=${urls.clearhaus}
BAMBORA_TEST_BASE_URL=${urls.bambora}
THREEDS_TEST_SERVER_URL=${urls.threeds}
THREEDS_TEST_API_KEY=${THREEDS_SANDBOX_API_KEY}
${REPORTING.map(({ variable, url }) => `${variable}=${url}`).join("\n")}

A service whose test mode goes to these sandboxes treats them as an acquirer's test endpoint: it
knows no account there, so give each merchant its test accounts (once per merchant; these are the
sandboxes' published test credentials, not secrets; two more accounts per sandbox are in
lib/sandboxes/acquirers/<name>/accounts.ts):

${ACQUIRER_NAMES.map(accountsAddLine).join("\n")}

and, for disputes and settlements, the account's reporting API client at the sandbox (<accountid>:
the id its line above printed):

${REPORTING.map(({ processor }) => `echo '${JSON.stringify(SANDBOXES[processor].reporting!.credentials(0))}' | ${cli} accounts set-reporting-credentials --merchant <merchantid> --account <accountid> --credentials-file -`).join("\n")}

A Clearhaus account may also sign as the sandbox's partner: signing API key ${partner.signingApiKey},
the private key printed in Clearhaus' docs (lib/sandboxes/acquirers/clearhaus/accounts.ts).
`);
const stop = async () => {
  await running.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
