// Traffic fell and nothing on the site's side explains it: the market or the season. Unusual days
// of the clicks series (the forecast's) make it more certain.
import { unusualDays } from "../../search/index.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";
import { DROP_SHARE, trafficChange } from "../signals.ts";

export const externalTrafficDrop: DiagnosisRule = {
  code: "external_traffic_drop",
  title: "Traffic fell for reasons outside the site",
  needs: ["search"],
  kind: "external",
  evaluate({ ev, internal }): Cause | null {
    const traffic = trafficChange(ev.clicks);
    if (!traffic || traffic.changePct > -DROP_SHARE * 100 || internal.length > 0) return null;
    const last28 = ev.clicks.slice(-28);
    const unusual = unusualDays(last28.map((d) => d.value))
      .filter((u) => u.direction === "drop" && u.index >= last28.length - 7)
      .map((u) => last28[u.index]!.day);
    return {
      code: this.code,
      title: this.title,
      text: `Traffic fell ${Math.abs(traffic.changePct)}% (${traffic.before} → ${traffic.recent} clicks a day) with no cause found on the site: a seasonal dip or a change in the market.`,
      severity: "warn",
      confidence: confidence(unusual.length > 0 ? 0.65 : 0.5),
      since: null,
      evidence: [
        { source: "search", fact: `clicks per day ${traffic.before} → ${traffic.recent}, ${traffic.changePct}%` },
        ...(unusual.length > 0 ? [{ source: "search" as const, fact: `unusual drops on ${unusual.join(", ")}` }] : []),
      ],
      fixedBy: [],
      action: "Compare with last year's season and with competitors' visibility before changing the site.",
    };
  },
};
