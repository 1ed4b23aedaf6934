// The TLS certificate: what the latest check read of it (tls_cert_valid, tls_cert_expiry with its
// days left) and the open certificate incident (its stage). Critical only when browsers refuse the
// certificate (expired, not trusted, not covering the host); an expiry ahead is a warning (30, 14
// days) or bad (7 days), and the text says how many days are left (docs/monitoring.md).
import { CERTIFICATE_REFUSED_CAUSES, CERTIFICATE_STAGES_DAYS } from "../../site-incidents.ts";
import type { IncidentEvidence, RunEvidence } from "../evidence.ts";
import { confidence, type Cause, type CauseEvidence, type DiagnosisRule, type Severity } from "../rule.ts";
import { openIncident } from "../signals.ts";

/** At or under this many days left, an expiry is bad (the incident's 7d stage, tls_cert_expiry's bad tier). */
const BAD_DAYS = 7;
/** The certificate incident's first stage (CERTIFICATE_STAGES_DAYS[0]). */
const STAGE_DAYS = CERTIFICATE_STAGES_DAYS[0];

/** Why browsers refuse the certificate, in words, from tls_cert_valid's value or the incident's cause. */
function refusal(problem: string, host: string): string {
  if (problem === "CERT_HAS_EXPIRED" || problem === "expired") return "The certificate has expired: browsers refuse the site and visitors see a warning.";
  if (problem === "ERR_TLS_CERT_ALTNAME_INVALID" || problem === "name_mismatch") return `The certificate does not cover ${host}: browsers refuse it and visitors see a warning.`;
  if (problem === "CERT_NOT_YET_VALID") return "The certificate is not valid yet: browsers refuse it and visitors see a warning.";
  const code = problem === "untrusted" ? "" : ` (${problem})`;
  return `Browsers do not trust the certificate${code}: visitors see a warning and leave.`;
}

/** Days left before expiry as the latest check read them (tls_cert_expiry's value, whatever its status). */
function daysLeft(latest: RunEvidence): number | null {
  const days = latest.certificate?.daysLeft;
  return typeof days === "number" && Number.isFinite(days) ? days : null;
}

function stageDays(incident: IncidentEvidence | null): number | null {
  const m = /^(\d+)d$/.exec(incident?.cause ?? "");
  return m ? Number(m[1]) : null;
}

export const certificate: DiagnosisRule = {
  code: "certificate",
  title: "The TLS certificate is invalid or expiring",
  needs: ["report"],
  kind: "internal",
  evaluate({ ev }): Cause | null {
    const latest = ev.runs.at(-1)!;
    const invalid = latest.failing.find((f) => f.code === "tls_cert_valid");
    const expiring = latest.failing.find((f) => f.code === "tls_cert_expiry");
    const incident = openIncident(ev, "certificate");
    const days = daysLeft(latest);
    // Within the incident's first stage (30 days) even before the site was probed (no uptime
    // evidence yet): the diagnosis and the certificate incident stage expiry alike.
    const withinStages = days !== null && days < STAGE_DAYS;
    if (!invalid && !expiring && !incident && !withinStages) return null;
    const facts: CauseEvidence[] = [invalid, expiring].filter((f) => f !== undefined).map((f) => ({ source: "report", fact: `${f.code} fails: ${f.title}` }));
    if (days !== null) facts.push({ source: "report", fact: `the certificate expires in ${days} day(s) (check of ${new Date(latest.checkedAt * 1000).toISOString().slice(0, 10)})` });
    if (incident) facts.push({ source: "uptime", fact: `open certificate incident: ${incident.title}` });
    const refusedBy = invalid ? (latest.certificate?.problem ?? "untrusted") : incident && CERTIFICATE_REFUSED_CAUSES.includes(incident.cause) ? incident.cause : null;
    let severity: Severity;
    let text: string;
    if (refusedBy !== null) {
      severity = "critical";
      text = refusal(refusedBy, ev.host);
    } else {
      const left = days ?? stageDays(incident);
      severity = (left !== null && left <= BAD_DAYS) || expiring?.level === "bad" ? "bad" : "warn";
      text =
        days !== null
          ? `The certificate expires in ${days} day(s): renew it before browsers start refusing the site.`
          : left !== null
            ? `The certificate expires within ${left} days: renew it before browsers start refusing the site.`
            : "The certificate expires soon: renew it before browsers start refusing the site.";
    }
    return {
      code: this.code,
      title: this.title,
      text,
      severity,
      confidence: confidence(0.9),
      since: incident?.firstSeen ?? latest.checkedAt,
      evidence: facts,
      fixedBy: ["tls_cert_valid", "tls_cert_expiry"],
      action: "Renew the certificate and automate renewal.",
    };
  },
};
