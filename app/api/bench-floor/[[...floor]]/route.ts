// /api/bench-floor/*: the benchmark's Next.js floors (lib/api/bench-floor.ts); 404 unless BENCH_FLOORS=1.
import { benchFloorRoutes } from "@/lib/api/bench-floor";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = benchFloorRoutes();
