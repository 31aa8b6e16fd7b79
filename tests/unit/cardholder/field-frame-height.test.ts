// The hosted-field frames are as tall as the styled input (newcomer review F6): dynamic.js and the
// back-office preview both take their height from this one function.
import { describe, expect, it } from "vitest";
import { DEFAULT_FRAME_HEIGHTS, frameHeights } from "@/lib/cardholder/field-frame-height";

describe("frameHeights", () => {
  it("keeps the defaults when no height is styled, or one relative to the frame itself", () => {
    expect(frameHeights({})).toEqual(DEFAULT_FRAME_HEIGHTS);
    expect(frameHeights({ height: "100%" })).toEqual(DEFAULT_FRAME_HEIGHTS);
    expect(frameHeights({ height: "0" })).toEqual(DEFAULT_FRAME_HEIGHTS);
  });

  it("frames a 52 px input whole, with room for the 1 px focus ring above and below", () => {
    expect(frameHeights({ height: "52px" })).toEqual({ field: 54, single: 54 });
    expect(frameHeights({ height: "36px" })).toEqual({ field: 38, single: 38 });
    expect(frameHeights({ height: "40.5px" })).toEqual({ field: 43, single: 43 });
  });

  it("reads rem against the page's 16 px and em against the input's own font size", () => {
    expect(frameHeights({ height: "3rem" })).toEqual({ field: 50, single: 50 });
    expect(frameHeights({ height: "3em", fontSize: "20px" })).toEqual({ field: 62, single: 62 });
    expect(frameHeights({ height: "3em", fontSize: "1.25rem" })).toEqual({ field: 62, single: 62 });
    expect(frameHeights({ height: "3em" })).toEqual({ field: 50, single: 50 });
  });
});
