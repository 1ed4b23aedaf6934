import { domainToASCII } from "node:url";
import { UtilityError, defineUtility, type SmtpReply, type UtilityNet } from "../utility.ts";
import { mapLimit, netOf } from "../site/net-util.ts";

interface Input {
  emails: string[];
  smtp_probe: boolean;
}

/** Well-known throw-away mail services (a short list of the largest; the check is by domain). */
const DISPOSABLE = new Set(
  ("mailinator.com guerrillamail.com guerrillamail.net 10minutemail.com tempmail.com temp-mail.org yopmail.com trashmail.com " +
    "getnada.com dispostable.com sharklasers.com maildrop.cc throwawaymail.com fakeinbox.com mailnesia.com mintemail.com " +
    "emailondeck.com mohmal.com tempail.com burnermail.io tempmailo.com mail.tm moakt.com dropmail.me").split(" "),
);
/** Role accounts: a mailbox of a function, not a person. */
const ROLE = new Set(
  ("admin administrator info support sales contact help office billing abuse postmaster hostmaster webmaster noreply no-reply " +
    "marketing hr jobs careers team hello press media security root mail").split(" "),
);
/** Domains a typo is most likely of. */
const COMMON = ["gmail.com", "yandex.ru", "mail.ru", "outlook.com", "hotmail.com", "yahoo.com", "icloud.com", "rambler.ru", "bk.ru", "list.ru", "inbox.ru", "ya.ru", "live.com", "protonmail.com"];

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The common domain one or two edits away (gmial.com → gmail.com), or null. */
function suggestion(domain: string): string | null {
  if (COMMON.includes(domain)) return null;
  let best: string | null = null;
  let bestD = 3;
  for (const c of COMMON) {
    const d = distance(domain, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= (domain.length > 6 ? 2 : 1) ? best : null;
}

/** RFC 5321/5322 as mailboxes are used: a dot-atom local part ≤ 64, a domain of labels, ≤ 254 in all. */
function syntaxProblem(email: string): string | null {
  if (email.length > 254) return "longer than 254 characters";
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return "no local part and domain around one @";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64) return "the part before @ is longer than 64 characters";
  if (!/^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u.test(local)) return "the part before @ has a character mail does not allow, or a misplaced dot";
  const ascii = domainToASCII(domain.toLowerCase());
  if (ascii === "" || !/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(ascii)) return "the domain is not a valid host name";
  return null;
}

interface Row {
  email: string;
  syntax: boolean;
  problem: string | null;
  domain: string | null;
  mx: string[];
  /** Mail goes to the domain's A record when it has no MX (RFC 5321 §5.1). */
  implicit_mx: boolean;
  disposable: boolean;
  role: boolean;
  suggestion: string | null;
  smtp: { code: number; text: string } | null;
  verdict: "valid" | "risky" | "invalid" | "no_mail_server" | "rejected" | "unknown";
}

async function mailServers(net: UtilityNet, domain: string): Promise<{ mx: string[]; implicit: boolean; nullMx: boolean; error?: string }> {
  try {
    return await lookUp(net, domain);
  } catch (err) {
    // A resolver that gives no answer for one domain is that address's problem, not the run's.
    if (!(err instanceof UtilityError)) throw err;
    return { mx: [], implicit: false, nullMx: false, error: err.message };
  }
}

async function lookUp(net: UtilityNet, domain: string): Promise<{ mx: string[]; implicit: boolean; nullMx: boolean }> {
  const mx = (await net.resolve(domain, "MX")).map((r) => r.value.split(" ")[1]?.replace(/\.$/, "") ?? "");
  if (mx.length === 1 && mx[0] === "") return { mx: [], implicit: false, nullMx: true };
  if (mx.length > 0) return { mx: mx.filter(Boolean), implicit: false, nullMx: false };
  const a = await net.resolve(domain, "A");
  return a.length > 0 ? { mx: [domain], implicit: true, nullMx: false } : { mx: [], implicit: false, nullMx: false };
}

async function probe(net: UtilityNet, host: string, email: string): Promise<{ code: number; text: string } | null> {
  let ip: string;
  try {
    ip = (await net.addresses(host))[0] as string;
  } catch (err) {
    if (err instanceof UtilityError) return { code: 0, text: err.message };
    throw err;
  }
  let replies: SmtpReply[];
  try {
    replies = await net.smtp(ip, email);
  } catch (err) {
    if (err instanceof UtilityError) return { code: 0, text: err.message };
    throw err;
  }
  const rcpt = replies.find((r) => r.command.startsWith("RCPT")) ?? replies.at(-1) ?? null;
  return rcpt ? { code: rcpt.code, text: `${rcpt.command}: ${rcpt.code} ${rcpt.text}` } : null;
}

export const emailVerify = defineUtility<Input>({
  id: "email_verify",
  group: "net",
  title: "E-mail address checker",
  description:
    "Checks addresses without sending mail: syntax, IDN, whether the domain has MX/A, disposable provider, role address (info@, admin@), typo hint (gmial.com → gmail.com). Optionally asks the mail server whether it accepts the mailbox (SMTP RCPT TO, then QUIT)",
  net: true,
  file: false,
  fields: [
    { name: "emails", type: "list", label: "Addresses (one a line)", required: true, max: 100 },
    { name: "smtp_probe", type: "bool", label: "Ask the mail server (RCPT TO, no mail sent; many servers answer every address alike)", default: false },
  ],
  example: { emails: ["info@example.com", "user@gmial.com"] },
  async run(input, ports) {
    const net = netOf(ports);
    const emails = [...new Set(input.emails.map((e) => e.trim()))];
    const domains = new Map<string, ReturnType<typeof mailServers>>();
    // One look-up per domain, shared by its addresses.
    const serversOf = (d: string) => {
      let p = domains.get(d);
      if (!p) {
        p = mailServers(net, d);
        domains.set(d, p);
      }
      return p;
    };
    const rows = await mapLimit(emails, 4, async (email): Promise<Row> => {
      const problem = syntaxProblem(email);
      const at = email.lastIndexOf("@");
      const local = at > 0 ? email.slice(0, at) : email;
      const domain = problem === null ? domainToASCII(email.slice(at + 1).toLowerCase()) : null;
      const row: Row = { email, syntax: problem === null, problem, domain, mx: [], implicit_mx: false, disposable: false, role: false, suggestion: null, smtp: null, verdict: "invalid" };
      if (domain === null) return row;
      row.disposable = DISPOSABLE.has(domain);
      row.role = ROLE.has(local.toLowerCase().split("+")[0] as string);
      row.suggestion = suggestion(domain) && `${local}@${suggestion(domain)}`;
      const servers = await serversOf(domain);
      row.mx = servers.mx;
      row.implicit_mx = servers.implicit;
      if (servers.mx.length === 0) {
        row.problem = servers.error ?? (servers.nullMx ? "the domain declares it accepts no mail (null MX)" : "the domain has no MX or A record");
        row.verdict = servers.error ? "unknown" : "no_mail_server";
        return row;
      }
      if (input.smtp_probe) row.smtp = await probe(net, servers.mx[0] as string, email);
      const smtpCode = row.smtp?.code ?? null;
      if (smtpCode !== null && smtpCode >= 500) row.verdict = "rejected";
      else if (row.disposable || row.role || row.suggestion !== null) row.verdict = "risky";
      else if (smtpCode === null || smtpCode === 250 || smtpCode === 251) row.verdict = "valid";
      else row.verdict = "unknown";
      return row;
    });
    const count = (v: Row["verdict"]) => rows.filter((r) => r.verdict === v).length;
    return {
      result: { rows, counts: { valid: count("valid"), risky: count("risky"), invalid: count("invalid"), no_mail_server: count("no_mail_server"), rejected: count("rejected"), unknown: count("unknown") } },
      blocks: {
        tables: [
          {
            title: "Addresses",
            columns: ["E-mail", "Verdict", "Syntax", "Mail servers", "Disposable", "Role", "Did you mean", "SMTP", "Problem"],
            rows: rows.map((r) => [r.email, r.verdict, r.syntax, r.mx.join(", "), r.disposable, r.role, r.suggestion, r.smtp ? `${r.smtp.code}` : null, r.problem]),
          },
        ],
      },
      warnings: input.smtp_probe ? [{ code: "smtp_probe", text: "a server that accepts every address (catch-all) or greylists answers the same for real and made-up mailboxes" }] : [],
    };
  },
});
