// The browser part of the AReq, against the formats of the 3dsecure.io 2.2.0 table (areq_220).
import { describe, expect, it } from "vitest";
import { browserAReqFields, chooseMessageVersion, colorDepthForAReq, languageForAReq, purchaseDate } from "@/lib/threeds/browser-areq";

describe("browser AReq fields", () => {
  it("maps a colour depth to the closest lower allowed value", () => {
    expect([30, 24, 48, 64, 2, 0].map(colorDepthForAReq)).toEqual(["24", "24", "48", "48", "1", "1"]);
  });

  it("cuts a language tag longer than 8 characters to its language-region prefix", () => {
    expect(languageForAReq("da-DK")).toBe("da-DK");
    expect(languageForAReq("zh-Hant-TW")).toBe("zh-TW");
    expect(languageForAReq("")).toBeUndefined();
  });

  it("writes purchaseDate as YYYYMMDDHHMMSS in UTC", () => {
    expect(purchaseDate(new Date("2026-11-26T22:15:07.123Z"))).toBe("20261126221507");
  });

  it("sends the JavaScript facts only when the frame read them, and no browserJavascriptEnabled in 2.1.0", () => {
    const info = { language: "en-GB", colorDepth: 24, screenHeight: 800, screenWidth: 1280, timeZoneOffset: 300, javaEnabled: false };
    expect(browserAReqFields({ acceptHeader: "*/*", userAgent: "UA", ip: "192.0.2.1", info }, "2.2.0")).toEqual({
      browserAcceptHeader: "*/*",
      browserUserAgent: "UA",
      browserIP: "192.0.2.1",
      browserLanguage: "en-GB",
      browserJavascriptEnabled: true,
      browserJavaEnabled: false,
      browserColorDepth: "24",
      browserScreenHeight: "800",
      browserScreenWidth: "1280",
      browserTZ: "300",
    });
    expect(browserAReqFields({ acceptHeader: "*/*", userAgent: "UA", acceptLanguage: "fr-FR,fr;q=0.9" }, "2.2.0")).toEqual({
      browserAcceptHeader: "*/*",
      browserUserAgent: "UA",
      browserLanguage: "fr-FR",
      browserJavascriptEnabled: false,
    });
    expect(browserAReqFields({ info }, "2.1.0")).not.toHaveProperty("browserJavascriptEnabled");
  });

  it("chooses the highest version both sides speak", () => {
    const crd = (versions: string[]) => ({
      messageType: "CRD" as const,
      threeDSServerTransID: "6b91f61e-9e62-4f5c-ab8c-f1ffb84122cb",
      acsProtocolVersions: versions.map((version) => ({ version })),
    });
    expect(chooseMessageVersion(crd(["2.1.0", "2.2.0", "2.3.1"]))).toBe("2.2.0");
    expect(chooseMessageVersion(crd(["2.1.0"]))).toBe("2.1.0");
    expect(chooseMessageVersion(crd(["2.3.1"]))).toBeUndefined();
  });
});
