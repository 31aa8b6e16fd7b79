// POST /api/{paymentid}/capture: capture an authorized payment (spec 4.4).
import { followUpRoute } from "../follow-up-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = followUpRoute("capture");

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
