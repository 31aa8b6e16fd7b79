// The overview's date range from the page URL (issue 28, newcomer review F13).
import { describe, expect, it } from "vitest";
import { MAX_OVERVIEW_DAYS, parseOverviewRange } from "@/lib/backoffice/overview-range";

const now = new Date("2026-11-21T12:00:00Z");

describe("parseOverviewRange", () => {
  it("defaults to the last 30 UTC days, today included", () => {
    expect(parseOverviewRange({}, now)).toEqual({ range: { from: "2026-10-23", to: "2026-11-21" }, chosen: false, errors: {} });
  });

  it("takes a chosen range, both ends included, and fills a missing end", () => {
    expect(parseOverviewRange({ from: "2026-10-01", to: "2026-10-31" }, now)).toMatchObject({ range: { from: "2026-10-01", to: "2026-10-31" }, chosen: true });
    expect(parseOverviewRange({ from: "2026-11-01" }, now).range).toEqual({ from: "2026-11-01", to: "2026-11-21" });
    expect(parseOverviewRange({ to: "2026-10-31" }, now).range).toEqual({ from: "2026-10-02", to: "2026-10-31" });
  });

  it("reports a reversed, too long or unreadable range on its field and uses the default", () => {
    expect(parseOverviewRange({ from: "2026-11-10", to: "2026-11-01" }, now)).toEqual({ range: { from: "2026-10-23", to: "2026-11-21" }, chosen: false, errors: { to: "The end date is before the start date" } });
    expect(parseOverviewRange({ from: "2024-01-01", to: "2026-11-21" }, now).errors).toEqual({ from: `Choose at most ${MAX_OVERVIEW_DAYS} days` });
    const bad = parseOverviewRange({ from: "2026-02-30" }, now);
    expect(bad.errors.from).toBe("Use the date picker (YYYY-MM-DD)");
    expect(bad.chosen).toBe(false);
  });
});
