// Every minute: no payment is left stuck (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md, item 5). Pending
// authorization attempts are looked up when due and their payment finished by its owner (an MIT
// with its one result notification, a cardholder window with its one completion notification, or
// its late hold voided); windows whose goPay() request died or handed over are finished; MITs whose
// run died between its attempts and its result are finished. One step per row, so a crash repeats
// no look-up or void (lib/cardholder/finish-stuck-payments.ts is the same round as plain services).
// Each list is a step only when it has something (roundList, decision 0227): a minute with
// nothing stuck is one call of the function and no step record.
import { inngest } from "../inngest/client";
import { cronPayload } from "../inngest/events/cron";
import { finishAttempt } from "../cardholder/finish-stuck-payments";
import { findUnfinishedSessions, finishSessionPayment } from "../cardholder/finish-session-payment";
import { findDueAuthorizationAttempts, findUnfinishedMits } from "../payments/find-stuck-payments";
import { finishMitAuthorization } from "../payments/finish-mit-authorization";
import { roundList } from "./round-list";

export const finishStuckPaymentsJob = inngest.createFunction(
  { id: "finish-stuck-payments", retries: 2, concurrency: { limit: 1 }, triggers: [{ cron: "* * * * *" }] },
  async ({ event, step }) => {
    cronPayload.parse(event.data ?? {});
    const done: Record<string, string> = {};
    const attempts = await roundList(step, "find-attempts", () => findDueAuthorizationAttempts());
    for (const attempt of attempts) {
      done[attempt.id] = await step.run(`attempt-${attempt.id}`, () => finishAttempt({ operationId: attempt.id, paymentId: attempt.paymentId }));
    }
    const sessions = await roundList(step, "find-sessions", () => findUnfinishedSessions());
    for (const sessionId of sessions) {
      done[sessionId] = await step.run(`session-${sessionId}`, () => finishSessionPayment({ sessionId }));
    }
    const mits = await roundList(step, "find-mits", () => findUnfinishedMits());
    for (const paymentId of mits) {
      done[paymentId] = await step.run(`mit-${paymentId}`, () => finishMitAuthorization({ paymentId }));
    }
    return done;
  },
);
