// The height of a hosted-field frame on the merchant's page. dynamic.js sizes each field iframe;
// a fixed 44 px cut off the top and bottom borders and the rounded corners of an input styled
// 52 px tall (newcomer review F6), while the back-office preview, sized on its own, looked right.
// Now the frame is the styled input's height plus room for the focus ring, computed once here from
// the hosted integration's styling: the server puts it in dynamic.js's configuration, and the
// back-office preview sizes its frames with this same function, so preview and checkout agree.
import type { HostedStyling } from "../validation/hosted-styling";

/** The frame heights without a styled height: the input fills the frame (height: 100%). */
export const DEFAULT_FRAME_HEIGHTS = { field: 44, single: 48 } as const;
export type FrameHeights = { field: number; single: number };

/** The focus ring (box-shadow 0 0 0 1px) above and below the input. */
const FOCUS_RING_PX = 1;
/** The field pages' root font size (browsers' default; the stylesheet does not change it). */
const ROOT_FONT_PX = 16;

/**
 * A length of the styling schema in CSS pixels; `em` relative to the input's own font size. A
 * percentage (of the frame itself) or 0 gives undefined: the frame keeps its default height.
 */
function lengthPx(value: string | undefined, emPx: number): number | undefined {
  const match = value ? /^(\d{1,3}(?:\.\d{1,3})?)(px|rem|em|%)$/.exec(value.trim()) : null;
  if (!match) return undefined;
  const amount = Number(match[1]);
  if (amount <= 0) return undefined;
  switch (match[2]) {
    case "px":
      return amount;
    case "rem":
      return amount * ROOT_FONT_PX;
    case "em":
      return amount * emPx;
    default:
      return undefined;
  }
}

export function frameHeights(styling: Pick<HostedStyling, "height" | "fontSize">): FrameHeights {
  // The input's font size: an em or % font size is relative to the page's (the root's) size.
  const fontPx = styling.fontSize?.endsWith("%") ? (ROOT_FONT_PX * Number.parseFloat(styling.fontSize)) / 100 : (lengthPx(styling.fontSize, ROOT_FONT_PX) ?? ROOT_FONT_PX);
  const input = lengthPx(styling.height, fontPx);
  if (input === undefined) return { ...DEFAULT_FRAME_HEIGHTS };
  const height = Math.ceil(input) + 2 * FOCUS_RING_PX;
  return { field: height, single: height };
}
