// 3-D Secure messages as the tests of the 3-D Secure sandboxes send them.
import { randomUUID } from "node:crypto";

/**
 * The smallest AReq the sandboxes take: an app-less browser payment of 10.00 DKK, the card expiring
 * 12/2030, with a fresh threeDSServerTransID each call.
 */
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

/** The CReq the cardholder's browser posts to the ACS to open a challenge, in a full-page window (05). */
export function challengeRequest(ids: { threeDSServerTransID: unknown; acsTransID: unknown }) {
  return {
    messageType: "CReq",
    messageVersion: "2.2.0",
    threeDSServerTransID: ids.threeDSServerTransID,
    acsTransID: ids.acsTransID,
    challengeWindowSize: "05",
  };
}
