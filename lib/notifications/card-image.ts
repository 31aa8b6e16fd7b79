// The card image of a payment record (spec 2.4, gfx=1): a small PNG drawn here, not a stock picture:
// a card in the scheme's colour with a chip, the masked number ending in last4, and the expiry.
// Flat colours compress well, so the base64 stays far below the spec's 4096 characters.
import { PNG } from "pngjs";

export const CARD_IMAGE_WIDTH = 170;
export const CARD_IMAGE_HEIGHT = 107;
export const MAX_IMAGE_BASE64_CHARS = 4096;

type Rgb = readonly [number, number, number];

const SCHEME_COLOURS: Record<string, Rgb> = {
  visa: [26, 31, 113],
  mastercard: [235, 0, 27],
  amex: [0, 111, 207],
};
const OTHER_COLOUR: Rgb = [70, 70, 80];
const WHITE: Rgb = [255, 255, 255];
const CHIP: Rgb = [212, 175, 55];

// 3x5 bitmap glyphs, one string of 15 bits per character (rows top to bottom).
const GLYPHS: Record<string, string> = {
  "0": "111101101101111",
  "1": "010110010010111",
  "2": "111001111100111",
  "3": "111001111001111",
  "4": "101101111001001",
  "5": "111100111001111",
  "6": "111100111101111",
  "7": "111001010010010",
  "8": "111101111101111",
  "9": "111101111001111",
  "/": "001001010100100",
  "*": "000101010101000",
  " ": "000000000000000",
};

export interface CardImageInput {
  scheme: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CardImage {
  b64image: string;
  mimetype: "image/png";
  width: number;
  height: number;
}

function fillRect(png: PNG, x0: number, y0: number, w: number, h: number, colour: Rgb, radius = 0): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      if (radius > 0) {
        const dx = Math.max(x0 + radius - x, 0, x - (x0 + w - 1 - radius));
        const dy = Math.max(y0 + radius - y, 0, y - (y0 + h - 1 - radius));
        if (dx * dx + dy * dy > radius * radius) continue;
      }
      const index = (png.width * y + x) << 2;
      png.data[index] = colour[0];
      png.data[index + 1] = colour[1];
      png.data[index + 2] = colour[2];
      png.data[index + 3] = 255;
    }
  }
}

function drawText(png: PNG, text: string, x: number, y: number, scale: number, colour: Rgb): void {
  let cursor = x;
  for (const character of text) {
    const glyph = GLYPHS[character] ?? GLYPHS[" "]!;
    for (let row = 0; row < 5; row++) {
      for (let column = 0; column < 3; column++) {
        if (glyph[row * 3 + column] === "1") fillRect(png, cursor + column * scale, y + row * scale, scale, scale, colour);
      }
    }
    cursor += 4 * scale;
  }
}

export function drawCardImage({ scheme, last4, expMonth, expYear }: CardImageInput): CardImage {
  const png = new PNG({ width: CARD_IMAGE_WIDTH, height: CARD_IMAGE_HEIGHT, colorType: 6 });
  png.data.fill(0); // transparent corners
  fillRect(png, 0, 0, CARD_IMAGE_WIDTH, CARD_IMAGE_HEIGHT, SCHEME_COLOURS[scheme] ?? OTHER_COLOUR, 8);
  fillRect(png, 14, 24, 24, 18, CHIP, 3);
  drawText(png, `**** ${last4.replace(/\D/g, "").slice(-4)}`, 14, 56, 3, WHITE);
  drawText(png, `${String(expMonth).padStart(2, "0")}/${String(expYear).slice(-2)}`, 14, 84, 2, WHITE);
  const buffer = PNG.sync.write(png, { colorType: 6, deflateLevel: 9 });
  const b64image = buffer.toString("base64");
  if (b64image.length > MAX_IMAGE_BASE64_CHARS)
    throw new Error(`card image is ${b64image.length} base64 characters, more than ${MAX_IMAGE_BASE64_CHARS}`);
  return { b64image, mimetype: "image/png", width: CARD_IMAGE_WIDTH, height: CARD_IMAGE_HEIGHT };
}
