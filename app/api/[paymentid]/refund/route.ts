// POST /api/{paymentid}/refund: refund a captured payment (spec 4.5).
import { followUpRoute } from "../follow-up-route";
import { methodNotAllowed } from "@/lib/api/unmatched-api-route";

export const dynamic = "force-dynamic";

export const POST = followUpRoute("refund");

export const { GET, HEAD, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
