// The one Inngest client of the app. Functions live in lib/jobs/ and are served at
// /api/inngest; in the default (embedded) mode the app's own executor plays the Inngest server.
//
// The options are getters because the SDK reads them on every use: the mode comes from
// lib/env.ts at the time of the call, not at import time (importing the client must not read the
// configuration, e.g. during `next build`). In server mode every getter answers undefined and the
// SDK reads INNGEST_* itself.
import { Inngest } from "inngest";
import { config } from "../env";
import { EMBEDDED_EVENT_API_BASE_URL, EMBEDDED_EVENT_KEY, embeddedAwareFetch } from "@cps/inngest-embedded";
import { db } from "../db";
import { inngestSigningKey } from "./signing-key";
import { ObservabilityMiddleware } from "../observability/inngest-middleware";
import { lazyLogger } from "../observability/logger";

const isEmbedded = () => config().inngestMode === "embedded";

export const inngest = new Inngest({
  id: "card-payment-service",
  fetch: embeddedAwareFetch(db),
  // Trace context on every event, a span and a log line per function call (lib/observability).
  middleware: [ObservabilityMiddleware],
  logger: lazyLogger("inngest"),
  get eventKey() {
    return isEmbedded() ? EMBEDDED_EVENT_KEY : undefined;
  },
  get signingKey() {
    return isEmbedded() ? inngestSigningKey() : undefined;
  },
  get baseUrl() {
    return isEmbedded() ? EMBEDDED_EVENT_API_BASE_URL : undefined;
  },
});
