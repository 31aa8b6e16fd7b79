// Debian's Chromium as every browser run here starts it (Playwright's specs, the vitest files that
// drive a browser, the hosted-fields benchmark): no sandbox (we run as root), no GPU, and none of the
// background traffic a fresh profile would send, which the machine's network would refuse anyway.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
