// dynamic.js: runs on the merchant's page. Mounts our frames into the merchant's elements, reflects
// field state as CSS classes on them, and turns our frames' messages into the callbacks of spec 6.1.
// It never sees card data: the fields are cross-origin frames, and only booleans and the brand leave them.
import {
  CONTAINER_CLASSES,
  ERROR_TEXTS,
  FIELD_KINDS,
  PROTOCOL_TAG,
  frameToPageSchema,
  type ErrorCode,
  type FieldKind,
  type FieldState,
  type FrameToPage,
  type ScriptConfig,
} from "../protocol";
import { DEFAULT_FRAME_HEIGHTS } from "../field-frame-height";

type Payload = Record<string, string | boolean | null>;
type Callback = (payload: Payload) => void;

/** The callbacks of spec 6.1, plus the documented extras jsfieldloaderror and jsfieldchange. */
const CALLBACK_NAMES = [
  "jsinitsuccess",
  "jspaymentstarted",
  "jspaymentsuccess",
  "jspaymentfailed",
  "jspaymenttimeout",
  "jschallengestarted",
  "jschallengecompleted",
  "jschallengeaborted",
  "jsfieldloaderror",
  "jsfieldchange",
] as const;
type CallbackName = (typeof CALLBACK_NAMES)[number];

export interface InitOptions extends Partial<Record<CallbackName, Callback>> {
  /** Id of the element for the single-strip field (default "ccsingle"); when it exists, the separate fields are not used. */
  idccsingle?: string;
  /** Id of the element that receives the 3-D Secure challenge (default "challenge"). */
  idchallenge?: string;
}

/** How long a frame may take to say it is ready before jsfieldloaderror reports it. */
const LOAD_TIMEOUT_MS = 15_000;

const FIELD_TITLES: Record<FieldKind, string> = {
  pan: "Card number",
  expmonth: "Expiry month",
  expyear: "Expiry year",
  securitycode: "Security code",
  ccsingle: "Card details",
};

type FrameName = FieldKind | "controller" | "challenge";

interface Mounted {
  name: FrameName;
  iframe: HTMLIFrameElement;
  container: HTMLElement | undefined;
  ready: boolean;
  timer: ReturnType<typeof setTimeout>;
}

export function boot(config: ScriptConfig): void {
  const { sessionid, origin } = config;
  // Sized to the styled input (field-frame-height.ts), so its borders and corners are never cut off.
  const heights = config.frameHeights ?? DEFAULT_FRAME_HEIGHTS;
  const channel = randomChannel();
  let callbacks: InitOptions = {};
  const frames = new Map<FrameName, Mounted>();
  let initialized = false;
  let initReported = false;
  let paid = false;
  let timedOut = false;
  let currentPaymentId: string | null = null;
  let timeoutTimer: ReturnType<typeof setTimeout> | undefined;

  function call(name: CallbackName, payload: Payload): void {
    const callback = callbacks[name];
    if (typeof callback !== "function") return;
    // A merchant callback that throws must not stop the payment flow.
    try {
      callback(payload);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  }

  const failed = (paymentid: string | null, errorcode: ErrorCode, errortext = ERROR_TEXTS[errorcode]) =>
    call("jspaymentfailed", { sessionid, paymentid, errorcode, errortext });

  function frameUrl(name: FrameName, extraHash = "", path: string = name): string {
    return `${origin}/dynamic/${sessionid}/${path}${path.includes("?") ? "&" : "?"}b=${encodeURIComponent(config.binding)}#c=${channel}${extraHash}`;
  }

  function mount(name: FrameName, container: HTMLElement | undefined, src: string): Mounted {
    const iframe = document.createElement("iframe");
    iframe.src = src;
    iframe.name = `cps-${name}-${channel.slice(0, 8)}`;
    iframe.title = name === "controller" ? "Payment" : name === "challenge" ? "Card verification" : FIELD_TITLES[name];
    iframe.setAttribute("frameborder", "0");
    iframe.setAttribute("scrolling", "no");
    iframe.allow = "payment";
    iframe.style.cssText =
      name === "controller"
        ? "position:absolute;width:0;height:0;border:0;visibility:hidden"
        : name === "challenge"
          ? "display:block;width:100%;min-height:420px;border:0"
          : `display:block;width:100%;height:${name === "ccsingle" ? heights.single : heights.field}px;border:0;overflow:hidden`;
    if (name === "controller") iframe.setAttribute("aria-hidden", "true");
    const mounted: Mounted = {
      name,
      iframe,
      container,
      ready: false,
      timer: setTimeout(() => loadFailed(name, "the field did not load in time"), LOAD_TIMEOUT_MS),
    };
    frames.set(name, mounted);
    if (container) {
      container.classList.add(CONTAINER_CLASSES.base, CONTAINER_CLASSES.empty);
      container.replaceChildren(iframe);
    } else document.body.appendChild(iframe);
    return mounted;
  }

  function loadFailed(name: FrameName, reason: string): void {
    const mounted = frames.get(name);
    if (!mounted || mounted.ready) return;
    clearTimeout(mounted.timer);
    mounted.ready = true; // reported once
    mounted.container?.classList.add(CONTAINER_CLASSES.loadError);
    call("jsfieldloaderror", { sessionid, field: name, reason });
  }

  function reflect(container: HTMLElement | undefined, state: FieldState): void {
    if (!container) return;
    const list = container.classList;
    list.toggle(CONTAINER_CLASSES.focused, state.focused);
    list.toggle(CONTAINER_CLASSES.empty, state.empty);
    list.toggle(CONTAINER_CLASSES.valid, state.valid);
    list.toggle(CONTAINER_CLASSES.invalid, state.invalid);
    for (const name of Array.from(list)) if (name.startsWith(CONTAINER_CLASSES.brandPrefix)) list.remove(name);
    if (state.brand) list.add(`${CONTAINER_CLASSES.brandPrefix}${state.brand}`);
  }

  function post(name: FrameName, type: "pay" | "focus" | "clear" | "lock" | "abort-challenge"): void {
    frames.get(name)?.iframe.contentWindow?.postMessage({ tag: PROTOCOL_TAG, sessionid, channel, type }, origin);
  }

  function checkInitialized(): void {
    if (initReported) return;
    const all = [...frames.values()].filter((frame) => frame.name !== "challenge");
    if (all.length > 0 && all.every((frame) => frame.ready && !frame.container?.classList.contains(CONTAINER_CLASSES.loadError))) {
      initReported = true;
      call("jsinitsuccess", { sessionid, paymentid: null });
    }
  }

  function closeChallenge(): void {
    const challenge = frames.get("challenge");
    if (!challenge) return;
    clearTimeout(challenge.timer);
    challenge.iframe.remove();
    challenge.container?.classList.remove("cps-challenge-open");
    frames.delete("challenge");
  }

  function openChallenge(paymentid: string, url: string): void {
    closeChallenge();
    const container = document.getElementById(callbacks.idchallenge ?? config.elements.challenge) ?? undefined;
    // Only a path on our own origin is accepted as the challenge page.
    if (!url.startsWith(`/dynamic/${sessionid}/`)) return;
    const mounted = mount("challenge", container, frameUrl("challenge", "", url.slice(`/dynamic/${sessionid}/`.length)));
    mounted.container?.classList.remove(CONTAINER_CLASSES.base, CONTAINER_CLASSES.empty);
    mounted.container?.classList.add("cps-challenge-open");
    currentPaymentId = paymentid;
  }

  function onMessage(event: MessageEvent): void {
    // Exactly our origin and exactly one of the frames we mounted; everything else is ignored.
    if (event.origin !== origin) return;
    const source = [...frames.values()].find((frame) => frame.iframe.contentWindow === event.source);
    if (!source) return;
    const parsed = frameToPageSchema.safeParse(event.data);
    if (!parsed.success || parsed.data.sessionid !== sessionid || parsed.data.channel !== channel) return;
    handle(source, parsed.data);
  }

  function handle(source: Mounted, message: FrameToPage): void {
    switch (message.type) {
      case "ready":
        clearTimeout(source.timer);
        source.ready = true;
        // A frame that finished loading after the window closed is locked too.
        if (timedOut) post(source.name, "lock");
        if (source.name === "challenge") call("jschallengestarted", { sessionid, paymentid: currentPaymentId });
        checkInitialized();
        break;
      case "load-error":
        loadFailed(source.name, message.reason);
        break;
      case "state":
        reflect(source.container, message.state);
        call("jsfieldchange", {
          sessionid,
          field: message.field,
          empty: message.state.empty,
          valid: message.state.valid,
          brand: message.state.brand ?? null,
        });
        break;
      case "payment-started":
        currentPaymentId = message.paymentid;
        call("jspaymentstarted", { sessionid, paymentid: message.paymentid });
        break;
      case "payment-succeeded":
        paid = true;
        if (timeoutTimer) clearTimeout(timeoutTimer);
        call("jspaymentsuccess", { sessionid, paymentid: message.paymentid });
        break;
      case "payment-failed":
        failed(message.paymentid, message.errorcode, message.errortext);
        break;
      case "payment-timeout":
        windowTimedOut();
        break;
      case "challenge-required":
        openChallenge(message.paymentid, message.url);
        break;
      case "challenge-finished":
        closeChallenge();
        if (message.outcome === "completed") call("jschallengecompleted", { sessionid, paymentid: message.paymentid });
        if (message.outcome === "aborted") call("jschallengeaborted", { sessionid, paymentid: message.paymentid });
        break;
    }
  }

  function windowTimedOut(): void {
    if (timedOut || paid) return;
    timedOut = true;
    closeChallenge();
    post("controller", "lock");
    for (const name of FIELD_KINDS) post(name, "lock");
    call("jspaymenttimeout", { sessionid });
  }

  function initDynamic(options: InitOptions = {}): void {
    // The merchant's object is a boundary too: a callback that is not a function is named in the console.
    for (const name of CALLBACK_NAMES) {
      if (options[name] !== undefined && typeof options[name] !== "function")
        console.warn(`initDynamic: ${name} is not a function and is ignored`);
    }
    callbacks = options;
    if (initialized) return;
    initialized = true;
    window.addEventListener("message", onMessage);
    const single = document.getElementById(options.idccsingle ?? config.elements.ccsingle) ?? undefined;
    const kinds: FieldKind[] = config.onBehalf ? [] : single ? ["ccsingle"] : ["pan", "expmonth", "expyear", "securitycode"];
    if (config.closedReason) {
      // Nothing to mount: the frames would only refuse. Say why at once instead of after the load time-out.
      for (const kind of kinds) call("jsfieldloaderror", { sessionid, field: kind, reason: config.closedReason });
      if (config.expiresInMs <= 0) windowTimedOut();
      return;
    }
    for (const kind of kinds) {
      const container = kind === "ccsingle" ? single : (document.getElementById(config.elements[kind]) ?? undefined);
      if (!container) {
        call("jsfieldloaderror", { sessionid, field: kind, reason: `no element with id "${config.elements[kind]}" on the page` });
        continue;
      }
      mount(kind, container, frameUrl(kind));
    }
    mount("controller", undefined, frameUrl("controller", `&f=${kinds.join(",")}${config.onBehalf ? "&ob=1" : ""}`));
    // setTimeout holds at most about 24.8 days; a window is at most 20 minutes.
    timeoutTimer = setTimeout(windowTimedOut, config.expiresInMs);
  }

  function goPay(): void {
    if (timedOut) return failed(currentPaymentId, "PAYMENT_TIMEOUT");
    if (!initReported) return failed(null, "PAYMENT_ERROR", "The payment fields are not ready yet.");
    post("controller", "pay");
  }

  const api = window as unknown as { initDynamic: typeof initDynamic; goPay: typeof goPay };
  api.initDynamic = initDynamic;
  api.goPay = goPay;
}

function randomChannel(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
