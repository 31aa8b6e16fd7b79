// A form that writes settings of one mode (notification addresses) carries the mode it was shown in
// (a hidden `mode` field): when the back office was switched to the other mode meanwhile (another
// tab), saving would change the other mode's settings than the ones on screen, so it is refused.
import type { Actor } from "../auth/actor";
import { MODE_LABELS } from "../mode";
import { UserFacingError } from "./action-result";

export function assertFormMode(actor: Actor, input: unknown): void {
  const shown = input && typeof input === "object" ? (input as { mode?: unknown }).mode : undefined;
  if (shown === undefined || shown === actor.mode) return;
  throw new UserFacingError(
    `This form was opened in ${String(shown)} mode, but the back office is now in ${MODE_LABELS[actor.mode].toLowerCase()} (switched in another tab). Nothing was saved: reload the page and check the values first.`,
  );
}
