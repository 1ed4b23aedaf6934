// The home page got slower between the last two browser measurements.
import { REGRESSION_POINTS } from "../../browser/index.ts";
import { dayOf } from "../evidence.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";

export const performanceRegression: DiagnosisRule = {
  code: "performance_regression",
  title: "The site got slower",
  needs: ["browser"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const measured = ev.runs.filter((r) => r.browser?.score != null);
    const now = measured.at(-1);
    const before = measured.at(-2);
    if (!now || !before) return null;
    const from = before.browser!.score!;
    const to = now.browser!.score!;
    if (from - to < REGRESSION_POINTS) return null;
    const lcp = before.browser!.lcpMs !== null && now.browser!.lcpMs !== null ? `, LCP ${before.browser!.lcpMs} → ${now.browser!.lcpMs} ms` : "";
    return {
      code: this.code,
      title: this.title,
      text: `The home page's performance score fell from ${from} to ${to} between the checks of ${dayOf(before.checkedAt)} and ${dayOf(now.checkedAt)}${lcp}.`,
      severity: "warn",
      confidence: confidence(0.6),
      since: now.checkedAt,
      evidence: [{ source: "browser", fact: `performance score ${from} → ${to}${lcp}` }],
      fixedBy: ["lcp", "cls", "tbt", "fcp", "speed_index", "page_weight", "render_blocking"],
      action: "Compare what changed on the page between the two checks (scripts, images, fonts) and undo the heaviest.",
    };
  },
};
