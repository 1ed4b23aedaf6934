import { defineUtility, type Pair } from "../utility.ts";
import { bodyText, header, headerAll, netOf } from "./net-util.ts";

interface Input {
  url: string;
}

type Status = "good" | "warn" | "bad" | "info";

interface HeaderRow {
  name: string;
  value: string | null;
  status: Status;
  points: number;
  advice: string;
}

interface CookieRow {
  name: string;
  secure: boolean;
  http_only: boolean;
  same_site: string | null;
  problems: string[];
}

// Grading as the Mozilla Observatory does it: 100 points, minus a penalty per finding, floored at 0.
const GRADES: readonly [number, string][] = [
  [100, "A+"], [90, "A"], [85, "A-"], [80, "B+"], [70, "B"], [65, "B-"], [60, "C+"], [50, "C"], [45, "C-"], [40, "D+"], [30, "D"], [25, "D-"], [0, "F"],
];

export function gradeOf(score: number): string {
  return (GRADES.find(([min]) => score >= min) as [number, string])[1];
}

/** CSP directives by name (lower-case) → source list. */
export function parseCsp(value: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of value.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** What is weak in a CSP, each with its penalty. */
export function cspFindings(csp: Map<string, string[]>): { finding: string; points: number }[] {
  const findings: { finding: string; points: number }[] = [];
  const script = csp.get("script-src") ?? csp.get("default-src");
  if (!script) findings.push({ finding: "no script-src or default-src: scripts may load from anywhere", points: 20 });
  else {
    const strict = script.some((s) => /^'(nonce-|sha256-|sha384-|sha512-|strict-dynamic)/.test(s));
    if (script.includes("'unsafe-inline'") && !strict) findings.push({ finding: "script-src allows 'unsafe-inline' (no nonce or hash): XSS is not contained", points: 20 });
    if (script.includes("'unsafe-eval'")) findings.push({ finding: "script-src allows 'unsafe-eval'", points: 10 });
    if (script.some((s) => s === "*" || s === "http:" || s === "https:" || s === "data:")) findings.push({ finding: "script-src allows any host or scheme (*, http:, https: or data:)", points: 15 });
  }
  const objects = csp.get("object-src") ?? csp.get("default-src");
  if (!objects || !objects.includes("'none'")) findings.push({ finding: "object-src is not 'none': plugins may run", points: 5 });
  if (!csp.has("base-uri")) findings.push({ finding: "no base-uri: an injected <base> can redirect relative scripts", points: 0 });
  return findings;
}

const ACTIVE = new Set(["script", "iframe", "stylesheet", "object", "embed"]);

/** http:// resources of an https page, and forms that post over http. */
function mixedContent(html: string, base: string): { mixed: { url: string; kind: string; active: boolean }[]; insecureForms: string[] } {
  const mixed: { url: string; kind: string; active: boolean }[] = [];
  const insecureForms: string[] = [];
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  const valueOf = (m: RegExpExecArray | null) => m?.[2] ?? m?.[3] ?? m?.[4] ?? null;
  for (const m of html.matchAll(/<(script|iframe|img|link|source|video|audio|object|embed|form)\b[^>]*>/gi)) {
    const tag = m[0];
    const el = (m[1] as string).toLowerCase();
    if (el === "form") {
      const action = valueOf(attr(tag, "action"));
      if (action && /^http:\/\//i.test(action)) insecureForms.push(action);
      continue;
    }
    const rel = valueOf(attr(tag, "rel"))?.toLowerCase() ?? "";
    if (el === "link" && !/stylesheet|icon|preload|modulepreload/.test(rel)) continue;
    const src = valueOf(attr(tag, el === "link" ? "href" : el === "object" ? "data" : "src"));
    if (!src) continue;
    let abs: string;
    try {
      abs = new URL(src, base).href;
    } catch {
      continue;
    }
    if (!abs.startsWith("http:")) continue;
    const kind = el === "link" ? (rel.includes("stylesheet") ? "stylesheet" : "link") : el;
    mixed.push({ url: abs, kind, active: ACTIVE.has(kind) });
  }
  return { mixed, insecureForms };
}

function cookieRows(setCookies: readonly string[], https: boolean): CookieRow[] {
  return setCookies.map((raw) => {
    const [pair, ...attrs] = raw.split(";").map((s) => s.trim());
    const name = (pair ?? "").split("=")[0] ?? "";
    const has = (a: string) => attrs.some((x) => x.toLowerCase() === a || x.toLowerCase().startsWith(`${a}=`));
    const sameSite = attrs.find((x) => x.toLowerCase().startsWith("samesite="))?.split("=")[1] ?? null;
    const row: CookieRow = { name, secure: has("secure"), http_only: has("httponly"), same_site: sameSite, problems: [] };
    if (https && !row.secure) row.problems.push("no Secure: it also travels over plain HTTP");
    if (!row.http_only) row.problems.push("no HttpOnly: scripts can read it");
    if (!sameSite) row.problems.push("no SameSite: cross-site requests carry it (browsers assume Lax)");
    return row;
  });
}

export const securityHeaders = defineUtility<Input>({
  id: "security_headers",
  group: "site",
  title: "Security headers & mixed content",
  description:
    "Grades the page Observatory-style (starts at 100, loses points per finding). Covers HSTS, CSP (evaluated), frame-ancestors/XFO, X-Content-Type-Options, Referrer-Policy, Permissions-Policy, cookie flags, and mixed content and insecure forms on the page",
  net: true,
  file: false,
  fields: [{ name: "url", type: "url", label: "URL", required: true }],
  example: { url: "https://example.com/" },
  async run(input, ports) {
    const net = netOf(ports);
    const res = await net.fetch(input.url, { maxBytes: 2 * 1024 * 1024 });
    const https = res.url.startsWith("https:");
    const rows: HeaderRow[] = [];
    const add = (name: string, value: string | null, status: Status, points: number, advice: string) => rows.push({ name, value, status, points, advice });

    const hsts = header(res, "strict-transport-security") ?? null;
    if (!https) add("Strict-Transport-Security", hsts, "bad", 20, "the page is served over plain HTTP: redirect to HTTPS and send HSTS there");
    else if (!hsts) add("Strict-Transport-Security", null, "bad", 20, "send Strict-Transport-Security: max-age=31536000; includeSubDomains");
    else {
      const maxAge = Number(/max-age\s*=\s*"?(\d+)/i.exec(hsts)?.[1] ?? 0);
      if (maxAge < 15_552_000) add("Strict-Transport-Security", hsts, "warn", 10, "max-age is under six months (15552000 s)");
      else add("Strict-Transport-Security", hsts, "good", 0, /preload/i.test(hsts) ? "long max-age, preload requested" : "long max-age");
    }

    const cspValue = header(res, "content-security-policy") ?? null;
    const csp = cspValue ? parseCsp(cspValue) : null;
    const csp_findings = csp ? cspFindings(csp) : [];
    if (!csp) add("Content-Security-Policy", null, "bad", 25, "send a Content-Security-Policy (start with default-src 'self'; object-src 'none'; base-uri 'self')");
    else {
      const points = Math.min(25, csp_findings.reduce((n, f) => n + f.points, 0));
      add("Content-Security-Policy", cspValue, points === 0 ? "good" : points >= 20 ? "bad" : "warn", points, points === 0 ? "no weak directives" : csp_findings.map((f) => f.finding).join("; "));
    }

    const xfo = header(res, "x-frame-options") ?? null;
    const ancestors = csp?.get("frame-ancestors");
    if (ancestors) add("frame-ancestors (CSP)", ancestors.join(" "), "good", 0, "framing is limited by CSP frame-ancestors");
    else if (xfo && /^(deny|sameorigin)$/i.test(xfo.trim())) add("X-Frame-Options", xfo, "good", 0, "framing is limited");
    else add("X-Frame-Options", xfo, "bad", 20, "send CSP frame-ancestors 'self' (or X-Frame-Options: SAMEORIGIN) against clickjacking");

    const xcto = header(res, "x-content-type-options") ?? null;
    if (xcto?.trim().toLowerCase() === "nosniff") add("X-Content-Type-Options", xcto, "good", 0, "MIME sniffing is off");
    else add("X-Content-Type-Options", xcto, "bad", 5, "send X-Content-Type-Options: nosniff");

    const referrer = header(res, "referrer-policy") ?? null;
    if (!referrer) add("Referrer-Policy", null, "warn", 5, "send Referrer-Policy: strict-origin-when-cross-origin");
    else if (/unsafe-url|no-referrer-when-downgrade/i.test(referrer)) add("Referrer-Policy", referrer, "warn", 5, "this policy leaks full URLs to other sites");
    else add("Referrer-Policy", referrer, "good", 0, "referrers are limited");

    const permissions = header(res, "permissions-policy") ?? null;
    add("Permissions-Policy", permissions, permissions ? "good" : "info", 0, permissions ? "browser features are restricted" : "optional: restrict camera, microphone, geolocation…");

    const cookies = cookieRows(headerAll(res, "set-cookie"), https);
    const cookiePoints = (cookies.some((c) => https && !c.secure) ? 20 : 0) + (cookies.some((c) => !c.http_only) ? 5 : 0) + (cookies.some((c) => !c.same_site) ? 5 : 0);

    const html = /html/i.test(header(res, "content-type") ?? "") ? bodyText(res) : "";
    const { mixed, insecureForms } = https ? mixedContent(html, res.url) : { mixed: [], insecureForms: [] };
    const mixedPoints = (mixed.some((m) => m.active) ? 50 : 0) + (mixed.some((m) => !m.active) ? 10 : 0) + (insecureForms.length > 0 ? 20 : 0);

    const score = Math.max(0, 100 - rows.reduce((n, r) => n + r.points, 0) - cookiePoints - mixedPoints);
    const grade = gradeOf(score);
    const level = (points: number): Status => (points === 0 ? "good" : points >= 20 ? "bad" : "warn");
    const pairs: Pair[] = [
      { label: "Grade", value: `${grade} (${score}/100)`, status: score >= 80 ? "good" : score >= 50 ? "warn" : "bad" },
      { label: "Final URL", value: res.url },
      { label: "Cookies", value: cookies.length === 0 ? "none set" : `${cookies.length}, ${cookies.filter((c) => c.problems.length > 0).length} with problems`, status: cookies.length === 0 ? "info" : level(cookiePoints) },
      { label: "Mixed content", value: https ? `${mixed.length} insecure resources, ${insecureForms.length} insecure forms` : "not applicable (HTTP page)", status: https ? level(mixedPoints) : "info" },
    ];
    return {
      result: {
        url: res.url,
        status: res.status,
        grade,
        score,
        headers: rows.map(({ name, value, status, advice, points }) => ({ name, value, status, points, advice })),
        csp_findings: csp_findings.map((f) => f.finding),
        cookies,
        mixed: mixed.map(({ url, kind, active }) => ({ url, kind, active })),
        insecure_forms: insecureForms,
      },
      blocks: {
        pairs,
        tables: [
          { title: "Headers", columns: ["Header", "Value", "Status", "Points lost", "Advice"], rows: rows.map((r) => [r.name, r.value, r.status, r.points, r.advice]) },
          ...(cookies.length > 0 ? [{ title: "Cookies", columns: ["Name", "Secure", "HttpOnly", "SameSite", "Problems"], rows: cookies.map((c) => [c.name, c.secure, c.http_only, c.same_site, c.problems.join("; ")]) }] : []),
          ...(mixed.length > 0 ? [{ title: "Mixed content", columns: ["URL", "Kind", "Blocked by browsers"], rows: mixed.map((m) => [m.url, m.kind, m.active]) }] : []),
        ],
      },
    };
  },
});
