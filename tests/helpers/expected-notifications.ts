// Notification bodies as spec 6.2 shows them, for tests that expect one whole: a session that timed
// out without a payment has every payment field empty (the unit test of lib/notifications/bodies.ts
// spells the same body out field by field).

/** The completion notification of a payment window that timed out before any payment was made. */
export function timedOutSessionNotification({ sessionid, merchantpaymentid, merchantdata }: { sessionid: string; merchantpaymentid: string; merchantdata: string }) {
  return {
    sessionid,
    paymentid: "",
    merchantpaymentid,
    newmerchantpaymentid: "",
    status: "timeout",
    responsecode: "",
    authorizationcode: "",
    processor: "",
    tcardnumber: "",
    eci: "",
    merchantdata,
    par: "",
    mode: "test",
  };
}
