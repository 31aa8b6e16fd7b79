// The invisible controller frame: goPay() on the merchant page asks it to pay. It collects the
// values from the field frames (same origin, BroadcastChannel), checks that nothing is missing,
// and sends the card in one request that opens the payment (its id comes back first, for
// jspaymentstarted) and authorizes it (lib/cardholder/serve-pay-request.ts). During a 3-D Secure
// challenge it keeps the card in memory only, to authorize once the challenge has succeeded.
import {
  ERROR_TEXTS,
  PROTOCOL_TAG,
  payResultSchema,
  startPaymentResponseSchema,
  type BrowserInfo,
  type CardParts,
  type ErrorCode,
  type FieldKind,
  type PayResult,
} from "../protocol";
import type { FrameContext } from "./frame-context";

/** How long the field frames get to answer a collect request. */
const COLLECT_WAIT_MS = 800;
/** 3dsmethod.rst: a method whose notification has not come within 10 s has failed (threeDSCompInd N); Stripe and Adyen wait as long. */
export const METHOD_WAIT_MS = 10_000;

export function startController(context: FrameContext): void {
  const { sessionid } = context.config;
  const mountedFields = new Set<FieldKind>(
    (new URLSearchParams(location.hash.slice(1)).get("f") ?? "").split(",").filter(Boolean) as FieldKind[],
  );
  const onBehalf = new URLSearchParams(location.hash.slice(1)).get("ob") === "1";
  let busy = false;
  /** Card values held while a challenge runs; dropped as soon as the payment ends. */
  let pendingCard: CardParts | undefined;

  const fail = (paymentid: string | null, errorcode: ErrorCode) =>
    context.toPage({ type: "payment-failed", paymentid, errorcode, errortext: ERROR_TEXTS[errorcode] });

  function collect(): Promise<{ values: CardParts; answered: Set<FieldKind> }> {
    const requestId = crypto.randomUUID();
    const values: CardParts = {};
    const answered = new Set<FieldKind>();
    return new Promise((resolve) => {
      let stop = () => {};
      const done = () => {
        stop();
        resolve({ values, answered });
      };
      const timer = setTimeout(done, COLLECT_WAIT_MS);
      stop = context.onFrames((message) => {
        if (message.type !== "values" || message.requestId !== requestId) return;
        Object.assign(values, message.values);
        answered.add(message.field);
        if ([...mountedFields].every((field) => answered.has(field))) {
          clearTimeout(timer);
          done();
        }
      });
      context.toFrames({ type: "collect", requestId });
    });
  }

  /** The spec's missing-field codes, in the order the fields appear. */
  function missing(card: CardParts): ErrorCode | undefined {
    if (!card.pan) return "PAN_MISSING";
    if (!card.expmonth) return "EXPMONTH_MISSING";
    if (!card.expyear) return "EXPYEAR_MISSING";
    if (!card.securitycode) return "CVC_MISSING";
    return undefined;
  }

  function browserInfo(): BrowserInfo {
    return {
      language: navigator.language.slice(0, 35),
      colorDepth: screen.colorDepth,
      screenHeight: screen.height,
      screenWidth: screen.width,
      timeZoneOffset: new Date().getTimezoneOffset(),
      javaEnabled: false,
    };
  }

  async function post(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`/dynamic/${sessionid}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
    return response.json();
  }

  const payBody = (card: CardParts | undefined) => ({
    card,
    browser: browserInfo(),
    binding: new URLSearchParams(location.search).get("b") ?? undefined,
  });

  async function authorize(paymentid: string, card: CardParts | undefined): Promise<void> {
    const result: PayResult = payResultSchema.parse(await post(`payments/${paymentid}/authorize`, payBody(card)));
    finish(result, card);
  }

  /** The JSON lines of a streamed answer, one at a time, as they arrive. */
  function jsonLines(response: Response): () => Promise<unknown> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    return async () => {
      for (;;) {
        const end = buffered.indexOf("\n");
        if (end >= 0) {
          const text = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          return JSON.parse(text);
        }
        const { done, value } = await reader.read();
        if (done) throw new Error("the answer ended early");
        buffered += value;
      }
    };
  }

  /**
   * The 3DS Method: our hidden method page posts threeDSMethodData to the ACS (the cardholder's browser
   * must: the ACS reads it); it ends when our notification page, framed inside it, says so, or after
   * 10 s. Which of the two happened is not taken from here: the server knows whether the ACS notified.
   */
  function runMethod(paymentid: string, path: string): Promise<void> {
    return new Promise((resolve) => {
      const frame = document.createElement("iframe");
      frame.hidden = true;
      frame.title = "Card verification";
      const done = () => {
        clearTimeout(timer);
        removeEventListener("message", onMessage);
        frame.remove();
        resolve();
      };
      const onMessage = (event: MessageEvent) => {
        const data = event.data as { tag?: unknown; type?: unknown; paymentid?: unknown } | null;
        if (event.origin !== location.origin || !data || data.tag !== PROTOCOL_TAG) return;
        if (data.type === "method-notified" && data.paymentid === paymentid) done();
      };
      const timer = setTimeout(done, METHOD_WAIT_MS);
      addEventListener("message", onMessage);
      const binding = new URLSearchParams(location.search).get("b");
      frame.src = binding ? `${path}?b=${encodeURIComponent(binding)}` : path;
      document.body.appendChild(frame);
    });
  }

  function finish(result: PayResult, card: CardParts | undefined): void {
    switch (result.result) {
      case "approved":
        pendingCard = undefined;
        busy = false;
        context.toFrames({ type: "lock" });
        context.toPage({ type: "payment-succeeded", paymentid: result.paymentid });
        break;
      case "failed":
        pendingCard = undefined;
        busy = false;
        fail(result.paymentid, result.errorcode);
        break;
      case "timeout":
        pendingCard = undefined;
        busy = false;
        context.toFrames({ type: "lock" });
        context.toPage({ type: "payment-timeout" });
        fail(result.paymentid, "PAYMENT_TIMEOUT");
        break;
      case "challenge":
        pendingCard = card;
        context.toPage({ type: "challenge-required", paymentid: result.paymentid, url: result.url });
        break;
      case "method":
        pendingCard = card;
        void runMethod(result.paymentid, result.url)
          .then(() => authorize(result.paymentid, card))
          .catch(() => {
            busy = false;
            pendingCard = undefined;
            fail(result.paymentid, "PAYMENT_ERROR");
          });
        break;
    }
  }

  async function pay(): Promise<void> {
    if (busy) {
      fail(null, "PAYMENT_IN_PROGRESS");
      return;
    }
    busy = true;
    let paymentid: string | null = null;
    try {
      let card: CardParts | undefined;
      if (!onBehalf) {
        const { values } = await collect();
        const code = missing(values);
        if (code) {
          busy = false;
          fail(null, code);
          return;
        }
        card = values;
      }
      const response = await fetch(`/dynamic/${sessionid}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payBody(card)),
        credentials: "omit",
        cache: "no-store",
      });
      const next = jsonLines(response);
      const started = startPaymentResponseSchema.parse(await next());
      if (started.result === "failed") {
        busy = false;
        fail(started.paymentid, started.errorcode);
        return;
      }
      paymentid = started.paymentid;
      context.toPage({ type: "payment-started", paymentid });
      finish(payResultSchema.parse(await next()), card);
    } catch {
      busy = false;
      pendingCard = undefined;
      fail(paymentid, "PAYMENT_ERROR");
    }
  }

  context.onPage((message) => {
    if (message.type === "pay") void pay();
    if (message.type === "lock") {
      pendingCard = undefined;
      context.toFrames({ type: "lock" });
    }
  });

  context.onFrames((message) => {
    if (message.type !== "challenge-result" || !busy) return;
    context.toPage({ type: "challenge-finished", paymentid: message.paymentid, outcome: message.outcome });
    if (message.outcome === "completed") {
      const card = pendingCard;
      void authorize(message.paymentid, card).catch(() => {
        busy = false;
        pendingCard = undefined;
        fail(message.paymentid, "PAYMENT_ERROR");
      });
    } else {
      busy = false;
      pendingCard = undefined;
      if (message.outcome === "failed") fail(message.paymentid, "AUTHENTICATION_FAILED");
    }
  });

  context.toPage({ type: "ready", field: "controller" });
}
