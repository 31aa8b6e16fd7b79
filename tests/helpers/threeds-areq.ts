// The smallest AReq the 3-D Secure sandboxes take: an app-less browser payment of 10.00 DKK, the
// card expiring 12/2030, with a fresh threeDSServerTransID each call.
import { randomUUID } from "node:crypto";

export function minimalAReq(pan: string, notificationURL: string) {
  return {
    messageType: "AReq",
    messageVersion: "2.2.0",
    threeDSServerTransID: randomUUID(),
    deviceChannel: "02",
    messageCategory: "01",
    acctNumber: pan,
    cardExpiryDate: "3012",
    purchaseAmount: "1000",
    purchaseCurrency: "208",
    purchaseExponent: "2",
    notificationURL,
  };
}
