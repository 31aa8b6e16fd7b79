// A back-office form whose action finds no database connection in time (an overloaded service) gets
// a "busy, look and try again" message, not an error page; other unexpected errors still surface.
import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, runAction } from "@/lib/backoffice/action-result";
import { Prisma } from "@/lib/generated/prisma/client";

describe("runAction when the database is overloaded", () => {
  it("answers the busy message for the pool's wait running out and for a transaction that could not start", async () => {
    const poolTimeout = await runAction(async () => {
      throw new Error("timeout exceeded when trying to connect");
    });
    expect(poolTimeout).toEqual({ status: "error", message: BUSY_MESSAGE });
    const transaction = await runAction(async () => {
      throw new Prisma.PrismaClientKnownRequestError("Transaction API error: Unable to start a transaction in the given time.", {
        code: "P2028",
        clientVersion: "7",
      });
    });
    expect(transaction).toEqual({ status: "error", message: BUSY_MESSAGE });
    expect(BUSY_MESSAGE).toMatch(/try again/);
  });

  it("still rethrows other database errors", async () => {
    await expect(
      runAction(async () => {
        throw new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "7" });
      }),
    ).rejects.toThrow("Unique constraint failed");
  });
});
