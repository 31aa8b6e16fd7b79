// The protocol's schemas in the browser bundles (lib/cardholder/wire-schema.ts, used instead of zod
// to keep the fields light): each rule refuses what it must, and objects keep only their declared
// members, so nothing else (a card value) rides along in a message that passes.
import { describe, expect, it } from "vitest";
import * as w from "@/lib/cardholder/wire-schema";
import { PROTOCOL_TAG, frameConfigSchema, frameToFrameSchema, payResultSchema } from "@/lib/cardholder/protocol";

describe("wire schemas", () => {
  it("strings check type, pattern and length", () => {
    const id = w.string({ regex: /^[a-z]{2,4}$/, max: 3 });
    expect(id.safeParse("abc")).toEqual({ success: true, data: "abc" });
    expect(id.safeParse("abcd").success).toBe(false); // pattern allows 4, max does not
    expect(id.safeParse("a").success).toBe(false);
    expect(id.safeParse(12).success).toBe(false);
    expect(id.safeParse(undefined).success).toBe(false);
  });

  it("numbers are finite, booleans are booleans, oneOf is exact", () => {
    expect(w.number().safeParse(1.5).success).toBe(true);
    expect(w.number().safeParse(Number.NaN).success).toBe(false);
    expect(w.number().safeParse(Infinity).success).toBe(false);
    expect(w.number().safeParse("1").success).toBe(false);
    expect(w.boolean().safeParse(0).success).toBe(false);
    expect(w.oneOf(["a", "b"]).safeParse("b").success).toBe(true);
    expect(w.oneOf(["a", "b"]).safeParse("c").success).toBe(false);
  });

  it("optional accepts an absent member, nullable accepts null, neither accepts a wrong type", () => {
    const shape = w.object({ a: w.optional(w.string()), b: w.nullable(w.string()) });
    expect(shape.safeParse({ b: null })).toEqual({ success: true, data: { b: null } });
    expect(shape.safeParse({ a: 1, b: null }).success).toBe(false);
    expect(shape.safeParse({ a: "x" }).success).toBe(false); // b is required (null is a value, absent is not)
  });

  it("objects refuse non-objects and drop undeclared members", () => {
    const shape = w.object({ a: w.string() });
    expect(shape.safeParse(null).success).toBe(false);
    expect(shape.safeParse([]).success).toBe(false);
    expect(shape.safeParse("a").success).toBe(false);
    expect(shape.safeParse({ a: "x", pan: "4111111111111111" })).toEqual({ success: true, data: { a: "x" } });
  });

  it("a union picks the member its discriminator names and checks that member fully", () => {
    expect(frameToFrameSchema.safeParse({ type: "collect", requestId: "r1" }).success).toBe(true);
    expect(frameToFrameSchema.safeParse({ type: "collect" }).success).toBe(false);
    expect(frameToFrameSchema.safeParse({ type: "focus", field: "pan", carry: "12345" }).success).toBe(false);
    expect(frameToFrameSchema.safeParse({ type: "other" }).success).toBe(false);
    expect(
      frameToFrameSchema.safeParse({ type: "values", requestId: "r", field: "pan", values: { pan: "1".repeat(33) }, complete: true })
        .success,
    ).toBe(false);
  });

  it("parse throws on a mismatch (an answer of our own server that does not fit is a bug)", () => {
    expect(payResultSchema.parse({ result: "approved", paymentid: "p1" })).toEqual({ result: "approved", paymentid: "p1" });
    expect(() => payResultSchema.parse({ result: "approved" })).toThrow();
  });

  it("a frame's configuration needs the channel of its page", () => {
    const config = { sessionid: "abc", field: "controller", parentOrigin: "https://shop.example" };
    expect(frameConfigSchema.safeParse(config).success).toBe(false);
    expect(frameConfigSchema.safeParse({ ...config, channel: "0123456789abcdef" }).success).toBe(true);
    expect(frameConfigSchema.safeParse({ ...config, channel: "0123456789abcdef", field: "evil" }).success).toBe(false);
    expect(PROTOCOL_TAG).toBe("cps-hosted-fields/1");
  });
});
