// The list a cron round works through (decision 0227): read plainly, and recorded as the step `id`
// only when it has something. A round that finds nothing is then one call and no step record; a
// round with work is bounded by the list its step recorded, which its later calls get back from
// the step (the plain read on those calls only tells whether anything is left at all).
import type { GetStepTools } from "inngest";
import type { inngest } from "../inngest/client";

type Step = GetStepTools<typeof inngest>;

export async function roundList<T>(step: Step, id: string, find: () => Promise<T[]>) {
  const found = await find();
  // The step records what was just read, not a second read of it.
  return found.length > 0 ? step.run(id, async () => found) : [];
}
