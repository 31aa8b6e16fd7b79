// POST /api/{paymentid}/void: void an authorized, uncaptured payment (spec 4.6).
import { followUpRoute } from "../follow-up-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = followUpRoute("void");

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
