import { describe, expect, it } from "vitest";
import {
  completionNotificationBody,
  lifecycleNotificationBody,
  mitNotificationBody,
  operationNotificationBody,
  paymentRecordBody,
} from "@/lib/notifications/bodies";
import { truncateCardNumber } from "@/lib/cards/truncate-card-number";
import { eciValue, formatExpiry, formatUtcTimestamp } from "@/lib/notifications/format";

describe("formats", () => {
  it("writes UTC times as YYYY-MM-DD HH:MM:SS, expiry as MM/YYYY, and truncated card numbers", () => {
    expect(formatUtcTimestamp(new Date("2026-03-04T05:06:07.890Z"))).toBe("2026-03-04 05:06:07");
    expect(formatExpiry(3, 2030)).toBe("03/2030");
    expect(truncateCardNumber({ bin: "41111111", last4: "1111" })).toBe("411111xxxxxx1111");
    expect(truncateCardNumber({ bin: "411111", last4: "1111" })).toMatch(/^\d{6}[x*]{4,}\d{4}$/);
  });

  it("writes ECI as a number of up to 2 digits, or an empty string", () => {
    expect(eciValue("05")).toBe(5);
    expect(eciValue("7")).toBe(7);
    expect(eciValue(null)).toBe("");
    expect(eciValue("")).toBe("");
    expect(eciValue("123")).toBe("");
  });
});

describe("bodies", () => {
  it("completion (6.2): every field present, unknown ones empty", () => {
    const body = completionNotificationBody({
      sessionId: "s1",
      paymentId: null,
      merchantPaymentId: null,
      newMerchantPaymentId: null,
      status: "timeout",
      responseCode: null,
      authorizationCode: null,
      processor: null,
      card: null,
      eci: null,
      merchantData: null,
    });
    expect(body).toEqual({
      sessionid: "s1",
      paymentid: "",
      merchantpaymentid: "",
      newmerchantpaymentid: "",
      status: "timeout",
      responsecode: "",
      authorizationcode: "",
      processor: "",
      tcardnumber: "",
      eci: "",
      merchantdata: "",
      par: "",
    });
  });

  it("MIT (6.3), operation (6.4) and life cycle (6.6) carry exactly the spec's fields", () => {
    expect(
      Object.keys(
        mitNotificationBody({
          responseId: "r",
          paymentId: "p",
          newMerchantPaymentId: "n",
          responseCode: "00",
          authorizationCode: "1",
          status: "approved",
          processor: "finaro",
          eci: "02",
          par: null,
        }),
      ).sort(),
    ).toEqual(
      ["responseid", "paymentid", "newmerchantpaymentid", "responsecode", "authorizationcode", "status", "processor", "eci", "par"].sort(),
    );
    expect(
      operationNotificationBody({
        responseId: "r",
        paymentId: "p",
        merchantPaymentId: null,
        responseCode: "05",
        authorizationCode: null,
        status: "declined",
      }),
    ).toEqual({
      responseid: "r",
      paymentid: "p",
      merchantpaymentid: "",
      responsecode: "05",
      authorizationcode: "",
      status: "declined",
    });
    expect(lifecycleNotificationBody({ paymentId: "p", merchantPaymentId: "m", change: "expiry" })).toEqual({
      paymentid: "p",
      merchantpaymentid: "m",
      change: "expiry",
    });
  });

  it("payment record (2.2): spelled keys, amounts as strings in operations, paymenttype only on authorize", () => {
    const record = paymentRecordBody(
      {
        merchantId: "m",
        mode: "test",
        id: "p",
        merchantPaymentId: null,
        parentPaymentId: null,
        amount: 1000n,
        balance: 400n,
        currency: "DKK",
        reference: null,
        paymentType: "cit",
        processor: "bambora",
        textOnStatement: null,
        note: null,
        tags: null,
        sca: "Y",
        customerEmail: null,
        customerFirstName: "Ann",
        customerSurname: "Berg",
        customerIpAddress: null,
        card: {
          bin: "411111",
          last4: "1111",
          expMonth: 3,
          expYear: 2030,
          scheme: "visa",
          funding: "credit",
          segment: "consumer",
          issuer: "Bank",
          panType: "fpan",
          par: null,
        },
        operations: [
          {
            id: "o1",
            type: "authorize",
            paymentType: null,
            amount: 1000n,
            currency: "DKK",
            createdAt: new Date("2026-01-02T03:04:05Z"),
            note: null,
            responseCode: "00",
            authorizationCode: "123",
            status: "approved",
          },
          {
            id: "o2",
            type: "capture",
            paymentType: null,
            amount: 400n,
            currency: "DKK",
            createdAt: new Date("2026-01-02T04:04:05Z"),
            note: "n",
            responseCode: "00",
            authorizationCode: null,
            status: "approved",
          },
        ],
      },
      { responseId: "r" },
    );
    expect(record).toMatchObject({
      Issuer: "Bank",
      "Expiry date": "03/2030",
      customer: { email: "", firstname: "Ann", surename: "Berg", ipaddress: "" },
      amount: 1000,
      balance: 400,
      sca: "Y",
    });
    expect(record.operations[0]).toEqual({
      operationid: "o1",
      operationtype: "authorize",
      paymenttype: "cit",
      amount: "1000",
      currency: "DKK",
      created: "2026-01-02 03:04:05",
      note: "",
      responsecode: "00",
      authorizationcode: "123",
      status: "approved",
    });
    expect(record.operations[1]).not.toHaveProperty("paymenttype");
    expect(record.operations[1]?.amount).toBe("400");
    expect(record).not.toHaveProperty("gfx");
  });
});
