// Function logic alone with @inngest/test: the engine runs the handler with mocked steps, no
// server, no executor. The pattern for unit-testing the app's functions. With @inngest/test 1.0
// and inngest 4.24 a step.sleep never resolves unless it is mocked: list it in `steps`.
import { InngestTestEngine } from "@inngest/test";
import { eventType } from "inngest";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inngest } from "@/lib/inngest/client";

const greetRequested = eventType("test/greet", { schema: z.object({ name: z.string() }) });
const greet = inngest.createFunction({ id: "greet", triggers: [greetRequested] }, async ({ event, step }) => {
  const greeting = await step.run("compose", () => `hello ${event.data.name}`);
  await step.sleep("wait", "3s");
  return step.run("shout", () => greeting.toUpperCase());
});

describe("@inngest/test", () => {
  it("runs a function's steps with a mocked sleep", async () => {
    const engine = new InngestTestEngine({
      function: greet,
      events: [{ name: "test/greet", data: { name: "ada" } }],
      steps: [{ id: "wait", handler: () => undefined }],
    });
    const { result } = await engine.execute();
    expect(result).toBe("HELLO ADA");
  });

  it("replaces a step's result with a mock", async () => {
    const engine = new InngestTestEngine({
      function: greet,
      events: [{ name: "test/greet", data: { name: "ada" } }],
      steps: [
        { id: "compose", handler: () => "hi grace" },
        { id: "wait", handler: () => undefined },
      ],
    });
    const { result } = await engine.execute();
    expect(result).toBe("HI GRACE");
  });
});

describe("@inngest/test, one step at a time", () => {
  it("runs up to a step and returns its result", async () => {
    const engine = new InngestTestEngine({ function: greet, events: [{ name: "test/greet", data: { name: "ada" } }] });
    const { result } = await engine.executeStep("compose");
    expect(result).toBe("hello ada");
  });
});
