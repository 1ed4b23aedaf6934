// The site is, or was, unreachable: an open down incident, or enough downtime in the last week.
import { DAY_S, dayOf } from "../evidence.ts";
import { confidence, type Cause, type DiagnosisRule } from "../rule.ts";
import { downSeconds, openIncident } from "../signals.ts";

/** Downtime over 7 days from which closed incidents count as a cause. */
export const DOWNTIME_CAUSE_S = 30 * 60;

export const siteDown: DiagnosisRule = {
  code: "site_down",
  title: "The site is unreachable",
  needs: ["uptime"],
  kind: "internal",
  evaluate({ ev, now }): Cause | null {
    const open = openIncident(ev, "down");
    const incidents = ev.uptime!.incidents.filter((i) => i.kind === "down" && (i.resolvedAt === null || i.resolvedAt > now - 7 * DAY_S));
    const down = downSeconds(incidents, now - 7 * DAY_S, now);
    if (open) {
      return {
        code: this.code,
        title: this.title,
        text: `The site has been down since ${new Date(open.firstSeen * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC (${open.cause || open.title}).`,
        severity: "critical",
        confidence: confidence(0.95),
        since: open.firstSeen,
        evidence: [{ source: "uptime", fact: `open down incident since ${dayOf(open.firstSeen)}: ${open.cause || open.title}` }],
        fixedBy: [],
        action: "Bring the site back: check the server, hosting and DNS.",
      };
    }
    if (down < DOWNTIME_CAUSE_S) return null;
    const minutes = Math.round(down / 60);
    return {
      code: this.code,
      title: "The site was down in the last 7 days",
      text: `The site was down ${minutes} min in the last 7 days (${incidents.length} incident${incidents.length === 1 ? "" : "s"}).`,
      severity: "bad",
      confidence: confidence(0.6),
      since: incidents[0]?.firstSeen ?? null,
      evidence: [{ source: "uptime", fact: `${minutes} min down over 7 days in ${incidents.length} incident(s)` }],
      fixedBy: [],
      action: "Find why the site went down (hosting logs, resources) before it happens again.",
    };
  },
};
