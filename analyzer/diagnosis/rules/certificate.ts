// The TLS certificate is invalid, expired or about to expire (the latest check, or an open
// certificate incident).
import { confidence, type Cause, type CauseEvidence, type DiagnosisRule } from "../rule.ts";
import { openIncident } from "../signals.ts";

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
    if (!invalid && !expiring && !incident) return null;
    const severity = invalid || incident ? "critical" : expiring!.level === "bad" ? "bad" : "warn";
    const facts: CauseEvidence[] = [invalid, expiring].filter((f) => f !== undefined).map((f) => ({ source: "report", fact: `${f.code} fails: ${f.title}` }));
    if (incident) facts.push({ source: "uptime", fact: `open certificate incident: ${incident.cause || incident.title}` });
    return {
      code: this.code,
      title: this.title,
      text: invalid || incident ? "Browsers refuse the site's certificate: visitors see a warning and leave." : "The certificate expires soon: once it does, browsers will refuse the site.",
      severity,
      confidence: confidence(0.9),
      since: incident?.firstSeen ?? latest.checkedAt,
      evidence: facts,
      fixedBy: ["tls_cert_valid", "tls_cert_expiry"],
      action: "Renew the certificate and automate renewal.",
    };
  },
};
