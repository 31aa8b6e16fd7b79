// /sandbox/threeds/*: the in-process 3-D Secure sandbox (directory server and ACS challenge page),
// served on the service's origin so the cardholder's browser can frame the challenge page.
import { serveMountedThreeDsSandbox } from "@/lib/sandboxes/threeds/mount";

export const dynamic = "force-dynamic";

export const GET = serveMountedThreeDsSandbox;
export const POST = serveMountedThreeDsSandbox;
