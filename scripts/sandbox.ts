// npm run sandbox: the three acquirer sandboxes and the 3-D Secure sandbox on their own, so the test
// mode of services elsewhere can use them: FINARO_TEST_BASE_URL / CLEARHAUS_TEST_BASE_URL /
// BAMBORA_TEST_BASE_URL / THREEDS_TEST_DS_URL (live mode never uses a sandbox; a test that makes one
// stand in for an acquirer's production endpoint sets *_BASE_URL itself).
// Ports: --finaro N --clearhaus N --bambora N --threeds N (default 4101-4104).
import { parseArgs } from "node:util";
import { startSandboxes } from "../lib/sandboxes/acquirers/start-sandboxes";
import { FINARO_SANDBOX_CREDENTIALS, FINARO_SANDBOX_PATH } from "../lib/sandboxes/acquirers/finaro";
import { CLEARHAUS_SANDBOX_API_KEY } from "../lib/sandboxes/acquirers/clearhaus";
import { BAMBORA_SANDBOX_CREDENTIALS } from "../lib/sandboxes/acquirers/bambora";
import { THREEDS_SANDBOX_API_KEY } from "../lib/sandboxes/threeds/directory-server";

const { values } = parseArgs({
  options: {
    finaro: { type: "string", default: "4101" },
    clearhaus: { type: "string", default: "4102" },
    bambora: { type: "string", default: "4103" },
    threeds: { type: "string", default: "4104" },
  },
});

const running = await startSandboxes({
  register: false,
  ports: {
    finaro: Number(values.finaro),
    clearhaus: Number(values.clearhaus),
    bambora: Number(values.bambora),
    threeds: Number(values.threeds),
  },
});
const { urls } = running;
console.log(`Sandboxes running. Point the service's test mode at them with:

FINARO_TEST_BASE_URL=${urls.finaro}${FINARO_SANDBOX_PATH}
CLEARHAUS_TEST_BASE_URL=${urls.clearhaus}
BAMBORA_TEST_BASE_URL=${urls.bambora}
THREEDS_TEST_DS_URL=${urls.threeds}
THREEDS_TEST_API_KEY=${THREEDS_SANDBOX_API_KEY}

The local demo merchant's test accounts take these credentials (local mode only):
FINARO_MERCHANT_ID=${FINARO_SANDBOX_CREDENTIALS.merchantId}
FINARO_SIGNATURE_KEY=${FINARO_SANDBOX_CREDENTIALS.signatureKey}
CLEARHAUS_API_KEY=${CLEARHAUS_SANDBOX_API_KEY}
BAMBORA_ACCESS_TOKEN=${BAMBORA_SANDBOX_CREDENTIALS.accessToken}
BAMBORA_MERCHANT_NUMBER=${BAMBORA_SANDBOX_CREDENTIALS.merchantNumber}
BAMBORA_SECRET_TOKEN=${BAMBORA_SANDBOX_CREDENTIALS.secretToken}
`);
const stop = async () => {
  await running.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
