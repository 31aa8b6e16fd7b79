// Every Inngest function of the app. /api/inngest serves exactly this list, and the embedded
// executor learns it from there (in-band sync), so adding a function here is all it takes.
import type { InngestFunction } from "inngest";
import { merchantApiFunctions } from "./merchant-api";
import { scheduledFunctions } from "./scheduled";

export const functions: InngestFunction.Any[] = [
  // Add each area's functions here, e.g. `...notificationFunctions,` (one line per area).
  ...merchantApiFunctions,
  ...scheduledFunctions,
];
