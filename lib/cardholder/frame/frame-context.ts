// What every page of ours inside a merchant page shares: its configuration, the exact-origin link
// to the merchant page and the per-session BroadcastChannel to the other frames of the same page.
import {
  PROTOCOL_TAG,
  broadcastChannelName,
  frameConfigSchema,
  frameToFrameSchema,
  pageToFrameSchema,
  type FrameConfig,
  type FrameToFrame,
  type FrameToPage,
  type PageToFrame,
} from "../protocol";

/** Messages to the merchant page, without the envelope every message carries. */
type Outgoing = FrameToPage extends infer M ? (M extends FrameToPage ? Omit<M, "tag" | "sessionid" | "channel"> : never) : never;

export interface FrameContext {
  config: FrameConfig;
  /** Posts to the merchant page, to its exact origin only. */
  toPage(message: Outgoing): void;
  onPage(handler: (message: PageToFrame) => void): void;
  toFrames(message: FrameToFrame): void;
  /** Listens to the other frames; returns the function that stops listening. */
  onFrames(handler: (message: FrameToFrame) => void): () => void;
}

function readConfig(): FrameConfig | undefined {
  const element = document.getElementById("cps-config");
  const hash = new URLSearchParams(location.hash.slice(1));
  try {
    const parsed = frameConfigSchema.safeParse({ ...JSON.parse(element?.textContent ?? "null"), channel: hash.get("c") });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The window the merchant page is: our parent, or for the page inside the challenge frame, its parent's parent. */
export function createFrameContext(pageWindow: Window = window.parent): FrameContext | undefined {
  const config = readConfig();
  if (!config) return undefined;
  // Chromium and Safari tell which origin embeds us; it must be the one the session is bound to
  // (frame-ancestors already enforces it; this also covers browsers that ignore CSP).
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== config.parentOrigin) return undefined;
  const channel = new BroadcastChannel(broadcastChannelName(config.sessionid, config.channel));
  const envelope = { tag: PROTOCOL_TAG, sessionid: config.sessionid, channel: config.channel } as const;
  return {
    config,
    toPage(message) {
      pageWindow.postMessage({ ...envelope, ...message }, config.parentOrigin);
    },
    onPage(handler) {
      window.addEventListener("message", (event) => {
        // Only the merchant page that embeds us, from the origin the session is bound to.
        if (event.source !== pageWindow || event.origin !== config.parentOrigin) return;
        const parsed = pageToFrameSchema.safeParse(event.data);
        if (!parsed.success || parsed.data.sessionid !== config.sessionid || parsed.data.channel !== config.channel) return;
        handler(parsed.data);
      });
    },
    toFrames(message) {
      channel.postMessage(message);
    },
    onFrames(handler) {
      const listener = (event: MessageEvent) => {
        const parsed = frameToFrameSchema.safeParse(event.data);
        if (parsed.success) handler(parsed.data);
      };
      channel.addEventListener("message", listener);
      return () => channel.removeEventListener("message", listener);
    },
  };
}
