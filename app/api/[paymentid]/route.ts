// /api/{anything}: no endpoint has one path segment besides the named ones (initdynamic, mit, health
// ...): 404 in the spec's error shape.
import { notFoundRoutes } from "@/lib/api/unmatched-api-route";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundRoutes();
