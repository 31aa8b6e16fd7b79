// The cardholder routes served over real HTTP for a vitest file (useHostedFieldsServer), and the
// payment window driven the way our controller frame drives it, for suites that pay without a
// browser: the card as the fields send it, and the two requests of a payment (start it, send the card).
import { afterAll, beforeAll } from "vitest";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { startHostedFieldsServer, type HostedFieldsServer } from "./hosted-fields-server";

const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

/** The card as the fields send it to /authorize: expiring in December next year, CVC 123. */
export function fieldsCard(pan = "4111111111111111") {
  return { pan, expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };
}

export type HostedFields = Omit<HostedFieldsServer, "close">;

/** The hosted-fields server for the test file that calls this: started before its tests, closed after them. */
export function useHostedFieldsServer(): HostedFields {
  let server: HostedFieldsServer | undefined;
  beforeAll(async () => {
    server = await startHostedFieldsServer();
  });
  afterAll(async () => server?.close());
  const started = () => {
    if (!server) throw new Error("the hosted-fields server is used before beforeAll");
    return server;
  };
  return {
    get origin() {
      return started().origin;
    },
    postJson: (path, body) => started().postJson(path, body),
  };
}

/** Starts the window's payment as the controller frame does when Pay is pressed: its paymentid. */
export async function startWindowPayment(fields: HostedFields, sessionId: string): Promise<string> {
  return String((await fields.postJson(`/dynamic/${sessionId}/payments`, {})).paymentid);
}

/** Sends the card for the payment, bound to the shop's origin as the controller frame binds it: the answer. */
export function authorizeWithCard(fields: HostedFields, sessionId: string, paymentId: string, card: ReturnType<typeof fieldsCard>) {
  return fields.postJson(`/dynamic/${sessionId}/payments/${paymentId}/authorize`, { card, binding: createOriginBinding(sessionId, "http://shop.example") });
}
