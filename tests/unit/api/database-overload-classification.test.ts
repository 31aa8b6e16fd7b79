// lib/errors.ts isDatabaseOverload: the one place that tells "the database could not be reached in
// time, nothing ran" (answered 503 SERVICE_UNAVAILABLE) from every other database failure (answered
// 500 or as a refusal). The errors are the ones Prisma 7 with @prisma/adapter-pg and pg-pool throw,
// built with Prisma's own error class and the messages seen against PostgreSQL
// (tests/integration/api/pool-exhaustion-answers-retryable-503.test.ts produces the first two for real).
import { describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { isDatabaseOverload, sqlStateOf } from "@/lib/errors";

const known = (message: string, code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7", meta });
const tooManyConnections = { driverAdapterError: { cause: { kind: "TooManyConnections", originalCode: "53300" } } };

describe("isDatabaseOverload", () => {
  it("recognises a transaction that could not start in time, the pool's wait running out, and refused connections", () => {
    expect(isDatabaseOverload(known("Transaction API error: Unable to start a transaction in the given time.", "P2028"))).toBe(true);
    expect(isDatabaseOverload(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseOverload(new Error("Connection terminated due to connection timeout"))).toBe(true);
    expect(
      isDatabaseOverload(known("Too many database connections opened: too many connections for role", "P2037", tooManyConnections)),
    ).toBe(true);
    expect(isDatabaseOverload(known("Raw query failed. Code: `53300`.", "P2010", tooManyConnections))).toBe(true);
    // The same refusal from the driver itself (lib/db/hot-sql.ts, decision 0214): pg's DatabaseError.
    expect(isDatabaseOverload(Object.assign(new Error("sorry, too many clients already"), { code: "53300", severity: "FATAL" }))).toBe(true);
  });

  it("does not take other transaction errors, constraint violations or bugs for overload", () => {
    // Expired mid-way: statements ran, so "nothing was done" would not be known to be true.
    expect(
      isDatabaseOverload(
        known("Transaction API error: Transaction already closed: A commit cannot be executed on an expired transaction.", "P2028"),
      ),
    ).toBe(false);
    expect(isDatabaseOverload(known("Unique constraint failed on the fields: (`merchantPaymentId`)", "P2002"))).toBe(false);
    expect(isDatabaseOverload(Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }))).toBe(false);
    expect(isDatabaseOverload(new Error("timeout exceeded when trying to connect to the acquirer"))).toBe(false);
    expect(isDatabaseOverload(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseOverload("timeout exceeded when trying to connect")).toBe(false);
    expect(isDatabaseOverload(undefined)).toBe(false);
  });
});

describe("sqlStateOf", () => {
  it("reads the SQLSTATE from the driver's error and from Prisma's, and never takes a P-code for one", () => {
    expect(sqlStateOf(Object.assign(new Error("insert or update violates foreign key constraint"), { code: "23503" }))).toBe("23503");
    expect(sqlStateOf(known("Raw query failed. Code: `23503`.", "P2010", { driverAdapterError: { cause: { originalCode: "23503" } } }))).toBe("23503");
    expect(sqlStateOf(known("Raw query failed.", "P2010"))).toBeUndefined();
    expect(sqlStateOf(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBeUndefined();
    expect(sqlStateOf(undefined)).toBeUndefined();
  });
});
