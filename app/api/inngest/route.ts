// GET/POST/PUT /api/inngest: the app's Inngest functions, called by the Inngest server or, in
// embedded mode, by the executor inside this service (lib/inngest/executor/).
import { serve } from "inngest/next";
import { inngest } from "@/lib/inngest/client";
import { functions } from "@/lib/jobs";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({ client: inngest, functions });
