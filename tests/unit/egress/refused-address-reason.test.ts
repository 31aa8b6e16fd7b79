// The egress policy's classification of addresses (lib/egress): which ranges are refused, how IPv6
// forms that carry an IPv4 address are judged, and what the modes and the operator's list change.
import { describe, expect, it } from "vitest";
import { checkMerchantUrl } from "@/lib/egress/check-merchant-url";
import { parseNetworks, type EgressPolicy } from "@/lib/egress/egress-policy";
import { refusedAddressReason } from "@/lib/egress/refused-address-reason";

const production: EgressPolicy = { requireHttps: true, allowLoopback: false, allowedNetworks: [] };
const local: EgressPolicy = { requireHttps: false, allowLoopback: true, allowedNetworks: [] };

describe("refusedAddressReason", () => {
  it("refuses every special-purpose range in production and allows ordinary unicast", () => {
    const refused: Record<string, string> = {
      "127.0.0.1": "a loopback address",
      "::1": "a loopback address",
      "10.0.0.1": "a private (RFC 1918) address",
      "172.31.255.255": "a private (RFC 1918) address",
      "192.168.0.1": "a private (RFC 1918) address",
      "169.254.169.254": "a link-local address",
      "fe80::1": "a link-local address",
      "fc00::1": "a unique-local address",
      "fd12:3456::1": "a unique-local address",
      "100.64.0.1": "a carrier-grade NAT address",
      "224.0.0.1": "a multicast address",
      "ff02::1": "a multicast address",
      "0.0.0.0": "an unspecified address",
      "::": "an unspecified address",
      "255.255.255.255": "a broadcast address",
      "192.0.2.1": "a reserved address (reserved)",
      "2001::1": "a reserved address (teredo)",
    };
    for (const [address, reason] of Object.entries(refused)) expect({ address, reason: refusedAddressReason(address, production) }).toEqual({ address, reason });
    for (const address of ["8.8.8.8", "93.184.216.34", "2606:4700::1111"]) expect(refusedAddressReason(address, production)).toBeNull();
  });

  it("judges IPv6 forms that carry an IPv4 address by that address (mapped, compatible, SIIT, NAT64, 6to4)", () => {
    for (const address of ["::ffff:10.0.0.1", "::ffff:127.0.0.1", "::10.0.0.1", "::ffff:0:10.0.0.1", "64:ff9b::10.0.0.1", "2002:a00:1::1", "::ffff:a9fe:a9fe"]) {
      expect({ address, refused: refusedAddressReason(address, production) !== null }).toEqual({ address, refused: true });
    }
    expect(refusedAddressReason("::ffff:8.8.8.8", production)).toBeNull();
    expect(refusedAddressReason("64:ff9b::8.8.8.8", production)).toBeNull();
  });

  it("local mode allows loopback only; the operator's networks are allowed in every mode", () => {
    expect(refusedAddressReason("127.0.0.1", local)).toBeNull();
    expect(refusedAddressReason("::1", local)).toBeNull();
    expect(refusedAddressReason("10.0.0.1", local)).toBe("a private (RFC 1918) address");
    const operator = { ...production, allowedNetworks: parseNetworks("10.1.0.0/16, fd00::/8") };
    expect(refusedAddressReason("10.1.200.3", operator)).toBeNull();
    expect(refusedAddressReason("::ffff:10.1.200.3", operator)).toBeNull();
    expect(refusedAddressReason("fd00::5", operator)).toBeNull();
    expect(refusedAddressReason("10.2.0.1", operator)).toBe("a private (RFC 1918) address");
  });
});

describe("checkMerchantUrl", () => {
  it("reads the host as the URL parser does (hex, integer and short IPv4 forms are literals too)", () => {
    for (const url of ["https://0x7f.1/", "https://2130706433/", "https://127.1/", "https://[::ffff:7f00:1]/"]) {
      expect(checkMerchantUrl(url, production)).toBe("must not point to a loopback address");
    }
  });

  it("requires https in production, leaves host names to the connection, and leaves malformed URLs to the URL check", () => {
    expect(checkMerchantUrl("http://shop.example/n", production)).toBe("must be an https URL");
    expect(checkMerchantUrl("http://shop.example/n", local)).toBeNull();
    expect(checkMerchantUrl("https://localhost:8443/n", production)).toBeNull();
    expect(checkMerchantUrl("not a url", production)).toBeNull();
  });
});
