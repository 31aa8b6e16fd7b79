// /api itself: not an endpoint; 404 in the spec's error shape.
import { notFoundRoutes } from "@/lib/api/unmatched-api-route";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoutes();
