// The embedded executor's recent runs (@cps/inngest-embedded listRuns) on the app's database, with
// function ids as written in lib/jobs (the client's app id left out). For the CLI and the back office.
import { listRuns as listExecutorRuns, type ListRunsFilter, type RunSummary } from "@cps/inngest-embedded";
import { db } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { inngest } from "./client";

export async function listRuns(options: ListRunsFilter & { database?: PrismaClient } = {}): Promise<RunSummary[]> {
  const { database, ...filter } = options;
  return listExecutorRuns({ ...filter, database: database ?? db(), appId: inngest.id });
}
