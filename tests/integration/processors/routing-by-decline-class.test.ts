// Routing by decline class (decision 0190), through authorizePayment over real HTTP to the acquirer
// sandboxes and a real database: a declined-hard answer is not sent to another acquirer (the card
// schemes forbid the re-attempt, and charge for it), the payment says why; a declined-soft or
// technical answer goes on as the spec's routing rule says.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { useProcessorSandboxes } from "@/tests/helpers/processor-sandboxes";
import { db } from "@/lib/db";
import { authorizeOperations } from "../../helpers/payment-factories";

useTestDatabase();


const services = useProcessorSandboxes({ threeDs: false, hangMs: 20_000, extensions: true });

const authorizeCard = (pan: string, processors: Array<"finaro" | "clearhaus" | "bambora">) =>
  services.authorizeCard(pan, { processors, timeoutMs: 5_000 }, { currency: "CAD" });

describe("routing by decline class", () => {
  it("an expired card (54, declined-hard) declined by finaro is not sent to clearhaus: routing stopped, and why", async () => {
    const { paymentId, result } = await authorizeCard("4000000000000069", ["finaro", "clearhaus", "bambora"]);
    expect(result).toMatchObject({ status: "declined", processor: "finaro", responsecode: "54" });
    const operations = await authorizeOperations(paymentId);
    expect(operations.map((operation) => [operation.processor, operation.status, operation.responseCode, operation.declineClass])).toEqual([
      ["finaro", "declined", "54", "declined-hard"],
    ]);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.status).toBe("DECLINED");
    expect(payment.routingStopped).toBe(
      "routing stopped: finaro declined for good (declined-hard, 54, finaro Z2=05 Z6=54); the card schemes forbid re-attempts of this decline, so clearhaus, bambora were not tried",
    );
    // The payment details (2.3) carry it as the stopping attempt's note.
    const attempt = await db().operation.findUniqueOrThrow({ where: { id: operations[0]!.id } });
    expect(attempt.note).toBe(payment.routingStopped);
  });

  it("a declined-soft answer (05) goes on to the next acquirer, which approves; nothing says the routing stopped", async () => {
    const { paymentId, result } = await authorizeCard("4000000000001000", ["finaro", "clearhaus"]);
    expect(result).toMatchObject({ status: "approved", processor: "clearhaus" });
    const operations = await authorizeOperations(paymentId);
    expect(operations.map((operation) => [operation.processor, operation.declineClass])).toEqual([
      ["finaro", "declined-soft"],
      ["clearhaus", "approved"],
    ]);
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).routingStopped).toBeNull();
  });

  it("a hard decline at the last acquirer in the list stops nothing: every acquirer was tried", async () => {
    const { paymentId, result } = await authorizeCard("4000000000000069", ["finaro"]);
    expect(result).toMatchObject({ status: "declined", responsecode: "54" });
    expect((await db().payment.findUniqueOrThrow({ where: { id: paymentId } })).routingStopped).toBeNull();
  });
});
