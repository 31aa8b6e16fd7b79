// The one Inngest client of the app. Functions live in lib/inngest/functions/ and are served at
// /api/inngest; in the default (embedded) mode the app's own executor plays the Inngest server.
import { Inngest } from "inngest";

export const inngest = new Inngest({ id: "card-payment-service" });
