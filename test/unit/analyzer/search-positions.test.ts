import { describe, expect, it } from "vitest";
import { keywordPositions, movedShareByDay, positionPages, urlFlips, type RankPoint } from "../../../analyzer/index.ts";

// Tracked positions (search-data-anchors §9): week changes, trends, pages, URL flips, daily moves.

const p = (keyword: string, day: string, position: number | null, url: string | null, volume: number | null = null): RankPoint => ({ engine: "yandex", region: 213, device: "desktop", keyword, day, position, url, grp: "Диваны", volume });
const points = [
  p("диван", "2026-11-01", 5, "/a", 1000),
  p("диван", "2026-11-07", 9, "/b", 1000),
  p("диван", "2026-11-08", 12, "/a", 1000),
  p("кровать", "2026-11-01", 3, "/k"),
  p("кровать", "2026-11-08", null, null),
  p("кресло", "2026-11-08", 4, "/c", 200),
];

describe("positions", () => {
  it("takes the check nearest a week before; not found counts as 101; trends follow the sign", () => {
    const byQuery = Object.fromEntries(keywordPositions(points).map((k) => [k.query, k]));
    expect(byQuery["диван"]).toEqual({ query: "диван", engine: "yandex", device: "desktop", region: 213, group: "Диваны", position: 12, previous: 9, week_ago: 5, change_week: -7, best: 5, page: "/a", checked: "2026-11-08", trend: "down", volume: 1000 });
    expect(byQuery["кровать"]).toMatchObject({ position: null, previous: 3, week_ago: 3, change_week: 3 - 101, best: 3, trend: "lost" });
    expect(byQuery["кресло"]).toMatchObject({ position: 4, previous: null, week_ago: null, change_week: null, trend: null });
  });
  it("groups the latest checks by page and finds URL flips", () => {
    expect(positionPages(keywordPositions(points))).toEqual([
      { url: "/c", keywords: 1, avg_position: 4, top3: 0, top10: 1, volume: 200 },
      { url: "/a", keywords: 1, avg_position: 12, top3: 0, top10: 0, volume: 1000 },
    ]);
    expect(urlFlips(points)).toEqual([{ query: "диван", engine: "yandex", urls: ["/a", "/b"], changes: 2 }]);
  });
  it("counts moves only between checks on consecutive days", () => {
    expect([...movedShareByDay(points)]).toEqual([["2026-11-08", { moved: 1, checked: 1 }]]);
  });
});
