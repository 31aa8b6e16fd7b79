// GET/POST/PUT /api/inngest: the app's Inngest functions, called by the Inngest server or, in
// embedded mode, synced by the executor inside this service (@cps/inngest-embedded, packages/inngest-embedded/), whose calls
// go to the same handler in-process (lib/jobs/serve-functions.ts). Guarded before the SDK reads
// anything: no endpoint in embedded web processes, 401 without a signature, a 4 MB cap
// (lib/jobs/serve-endpoint-guard.ts).
import { inngestRouteHandlers } from "@/lib/jobs/serve-functions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = inngestRouteHandlers;
