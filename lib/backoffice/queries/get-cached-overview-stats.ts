// The overview page's numbers, kept for a minute per merchant and process. Aggregating 30 days is
// a scan of every payment in them (2 s at a million payments on a busy machine, see
// scripts/bench/backoffice.ts); like Stripe's and Adyen's dashboards, the overview may trail by a
// minute, and the page says when its numbers were computed.
import { getOverviewStats, lastDays, type OverviewQuery, type OverviewStats } from "./overview-stats";

export const OVERVIEW_CACHE_MS = 60_000;
const MAX_ENTRIES = 1000;

interface Entry {
  stats: Promise<OverviewStats>;
  computedAt: Date;
}

const cache = ((globalThis as unknown as { __cpsOverviewCache?: Map<string, Entry> }).__cpsOverviewCache ??= new Map());

export async function getCachedOverviewStats({
  merchantId,
  mode,
  days = 30,
  now = new Date(),
  range = lastDays(days, now),
}: OverviewQuery): Promise<{ stats: OverviewStats; computedAt: Date }> {
  const key = `${merchantId}:${mode}:${range.from}:${range.to}`;
  const hit = cache.get(key);
  if (hit && now.getTime() - hit.computedAt.getTime() < OVERVIEW_CACHE_MS) return { stats: await hit.stats, computedAt: hit.computedAt };
  if (cache.size >= MAX_ENTRIES) cache.clear();
  // The promise is cached, so concurrent views of one merchant share one computation.
  const entry: Entry = { stats: getOverviewStats({ merchantId, mode, range }), computedAt: now };
  cache.set(key, entry);
  try {
    return { stats: await entry.stats, computedAt: entry.computedAt };
  } catch (error) {
    cache.delete(key);
    throw error;
  }
}
