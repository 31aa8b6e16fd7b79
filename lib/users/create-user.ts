import { z } from "zod";
import { db, type Tx } from "../db";
import { newId } from "../ids";
import { hashPassword, newPasswordSchema } from "../auth/password";
import type { UserRole } from "../generated/prisma/enums";

export const createUserInput = z.object({
  merchantId: z.string().min(1),
  email: z.email("must be an email address").transform((value) => value.toLowerCase()),
  name: z.string().trim().min(1, "is required").max(100),
  password: newPasswordSchema,
  role: z.enum(["OWNER", "DEVELOPER", "VIEWER"]).default("OWNER"),
});

export type CreateUserInput = z.input<typeof createUserInput>;

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`a user with email ${email} already exists`);
    this.name = "UserExistsError";
  }
}

export async function createUser(input: CreateUserInput & { tx?: Tx }) {
  const { merchantId, email, name, password, role } = createUserInput.parse(input);
  const client = input.tx ?? db();
  const existing = await client.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new UserExistsError(email);
  return client.user.create({
    data: { id: newId(), merchantId, email, name, passwordHash: await hashPassword(password), role: role as UserRole },
    select: { id: true, merchantId: true, email: true, name: true, role: true, createdAt: true },
  });
}
