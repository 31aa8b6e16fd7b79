// What a step-up action is given (review 3, M3): the signed-in actor, the form as sent (with the
// password, and code, that confirm the change) and the address it came from, for the audit log.
import type { Actor } from "../../auth/actor";

export interface StepUpRequest<Input = unknown> {
  actor: Actor;
  input: Input;
  ipAddress?: string | null;
}
