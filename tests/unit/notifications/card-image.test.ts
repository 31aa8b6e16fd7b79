import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { drawCardImage, MAX_IMAGE_BASE64_CHARS } from "@/lib/notifications/card-image";

function pixel(png: PNG, x: number, y: number): number[] {
  const index = (png.width * y + x) << 2;
  return [...png.data.subarray(index, index + 4)];
}

describe("card image (spec 2.4)", () => {
  it("is a real PNG of the stated size within 4096 base64 characters, for every scheme", () => {
    for (const scheme of ["visa", "mastercard", "amex", "unknown"]) {
      const image = drawCardImage({ scheme, last4: "4242", expMonth: 12, expYear: 2031 });
      expect(image.mimetype).toBe("image/png");
      expect(image.b64image.length).toBeLessThanOrEqual(MAX_IMAGE_BASE64_CHARS);
      const png = PNG.sync.read(Buffer.from(image.b64image, "base64"));
      expect([png.width, png.height]).toEqual([image.width, image.height]);
    }
  });

  it("draws the scheme colour, the chip, transparent corners and different digits for different cards", () => {
    const visa = PNG.sync.read(
      Buffer.from(drawCardImage({ scheme: "visa", last4: "1111", expMonth: 1, expYear: 2030 }).b64image, "base64"),
    );
    expect(pixel(visa, 0, 0)[3]).toBe(0);
    expect(pixel(visa, 100, 10)).toEqual([26, 31, 113, 255]);
    expect(pixel(visa, 25, 32)).toEqual([212, 175, 55, 255]);
    const other = drawCardImage({ scheme: "visa", last4: "8888", expMonth: 1, expYear: 2030 });
    expect(other.b64image).not.toBe(drawCardImage({ scheme: "visa", last4: "1111", expMonth: 1, expYear: 2030 }).b64image);
  });
});
