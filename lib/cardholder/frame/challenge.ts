// The 3-D Secure challenge page, shown in the merchant's challenge element. It posts the CReq into
// its inner frame at the issuer's ACS, offers a cancel button, and passes the outcome on to the
// controller frame. The outcome comes from our server (the result fetched server-side after the ACS
// posted the CRes to our notification page), never from what the browser claims.
import { PROTOCOL_TAG } from "../protocol";
import * as w from "../wire-schema";
import type { FrameContext } from "./frame-context";

const notifyMessageSchema = w.object({
  tag: w.oneOf([PROTOCOL_TAG]),
  type: w.oneOf(["challenge-notified"]),
  paymentid: w.string(),
  outcome: w.oneOf(["completed", "failed", "aborted"]),
});

export function startChallenge(context: FrameContext): void {
  const form = document.querySelector<HTMLFormElement>("form#acs-form");
  const acsFrame = document.querySelector<HTMLIFrameElement>("iframe[name=acs]");
  const cancel = document.querySelector<HTMLButtonElement>("button#cancel");
  if (!form || !acsFrame || !cancel || !context.config.paymentid) return;
  const paymentid = context.config.paymentid;
  let finished = false;

  const finish = (outcome: "completed" | "failed" | "aborted") => {
    if (finished) return;
    finished = true;
    cancel.disabled = true;
    context.toFrames({ type: "challenge-result", paymentid, outcome });
  };

  window.addEventListener("message", (event) => {
    // Only our own notification page, loaded inside the ACS frame after the challenge.
    if (event.origin !== location.origin || event.source !== acsFrame.contentWindow) return;
    const parsed = notifyMessageSchema.safeParse(event.data);
    if (parsed.success && parsed.data.paymentid === paymentid) finish(parsed.data.outcome);
  });

  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try {
      await fetch(`/dynamic/${context.config.sessionid}/payments/${paymentid}/abort-challenge`, { method: "POST", credentials: "omit" });
    } finally {
      finish("aborted");
    }
  });

  context.onPage((message) => {
    if (message.type === "abort-challenge") cancel.click();
  });

  form.submit();
  context.toPage({ type: "ready", field: "challenge" });
}
