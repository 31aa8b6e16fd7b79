// What a server action's form receives for each kind of failure.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAction } from "@/lib/backoffice/action-result";
import { ForbiddenError, NotFoundError } from "@/lib/auth/actor";
import { invalidParameter } from "@/lib/errors";

describe("runAction", () => {
  it("passes the message and data of a success", async () => {
    expect(await runAction(async () => ({ message: "Saved.", data: 1 }))).toEqual({ status: "success", message: "Saved.", data: 1 });
  });

  it("turns zod issues into one message per field", async () => {
    const state = await runAction(async () => {
      z.object({ name: z.string().min(1, "Give it a name"), url: z.url("Enter a URL") }).parse({ name: "", url: "x" });
      return { message: "never" };
    });
    expect(state).toEqual({ status: "error", message: "Check the highlighted fields.", fieldErrors: { name: "Give it a name", url: "Enter a URL" } });
  });

  it("shows role, not-found and merchant-API refusals as messages", async () => {
    expect((await runAction(async () => { throw new ForbiddenError("keys:write"); })).message).toMatch(/role does not allow/);
    expect((await runAction(async () => { throw new NotFoundError("Payment"); })).message).toBe("Payment not found");
    expect((await runAction(async () => { throw invalidParameter("amount", "exceeds the authorized amount"); })).message).toBe("amount: exceeds the authorized amount");
  });

  it("rethrows anything unexpected instead of hiding it", async () => {
    await expect(runAction(async () => { throw new TypeError("bug"); })).rejects.toThrow("bug");
  });
});
