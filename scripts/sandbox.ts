// npm run sandbox: the three acquirer sandboxes and the 3-D Secure sandbox on their own, so the test
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
import { FINARO_SANDBOX_CREDENTIALS, FINARO_SANDBOX_PATH } from "../lib/sandboxes/acquirers/finaro";
import { CLEARHAUS_SANDBOX_API_KEY } from "../lib/sandboxes/acquirers/clearhaus";
import { CLEARHAUS_SANDBOX_SIGNING_PARTNERS } from "../lib/sandboxes/acquirers/clearhaus/accounts";
import { BAMBORA_SANDBOX_CREDENTIALS } from "../lib/sandboxes/acquirers/bambora";
import { THREEDS_SANDBOX_API_KEY } from "../lib/sandboxes/threeds/directory-server";

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
console.log(`Sandboxes running (${values.extensions ? "with their sandbox-only extensions" : "strict: the references only"}).
A Clearhaus account may also sign as the sandbox's partner: signing API key ${partner.signingApiKey},
the private key printed in Clearhaus' docs (lib/sandboxes/acquirers/clearhaus/accounts.ts).
Point the service's test mode at them with:

FINARO_TEST_BASE_URL=${urls.finaro}${FINARO_SANDBOX_PATH}
CLEARHAUS_TEST_BASE_URL=${urls.clearhaus}
BAMBORA_TEST_BASE_URL=${urls.bambora}
THREEDS_TEST_SERVER_URL=${urls.threeds}
THREEDS_TEST_API_KEY=${THREEDS_SANDBOX_API_KEY}

The local demo merchant's test accounts take these credentials (local mode only):
FINARO_MERCHANT_ID=${FINARO_SANDBOX_CREDENTIALS.merchantId}
FINARO_SIGNATURE_KEY=${FINARO_SANDBOX_CREDENTIALS.signatureKey}
CLEARHAUS_API_KEY=${CLEARHAUS_SANDBOX_API_KEY}

Bambora North America test account (local mode gives it to the demo merchant; elsewhere: accounts add
--processor bambora --currencies CAD --credential merchantId=... and the two passcodes):
merchantId=${BAMBORA_SANDBOX_CREDENTIALS.merchantId} paymentsPasscode=${BAMBORA_SANDBOX_CREDENTIALS.paymentsPasscode} reportingPasscode=${BAMBORA_SANDBOX_CREDENTIALS.reportingPasscode}
`);
const stop = async () => {
  await running.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
