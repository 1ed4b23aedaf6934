import type { CheckDef } from "./check.ts";
import { aggregatePages, htmlPages } from "./page-sample.ts";

const CARD_TYPES = new Set(["summary", "summary_large_image", "app", "player"]);

export const twitterCard: CheckDef = {
  code: "twitter_card",
  title: "Twitter card type is declared",
  group: "social",
  rankGroup: "presentation",
  level: "info",
  weight: 1,
  effort: 1,
  recheck: true,
  hint: 'Add `<meta name="twitter:card" content="summary_large_image">` (or summary, app, player) so X/Twitter shows a card instead of a bare link.',
  run(facts) {
    return aggregatePages(
      htmlPages(facts),
      ({ page }) => {
        const card = page.twitter.find((m) => m.key === "twitter:card")?.content.trim().toLowerCase() ?? "";
        if (CARD_TYPES.has(card)) return "pass";
        return { verdict: "fail", why: card ? `unknown card type "${card}"` : "no twitter:card" };
      },
      { problem: "missing or unknown twitter:card", none: "no HTML page answered 200" },
    );
  },
};
