// The event a cron function is started with (`inngest/scheduled.timer`, from the embedded executor or
// an Inngest server). Its data says only which schedule fired; the cron jobs check that and nothing more.
import { z } from "zod";

/** The payload of the cron event: only its schedule. */
export const cronPayload = z.object({ cron: z.string().optional() }).loose();
