import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  contacts?: string[];
  expires_days: number;
  encryption?: string;
  canonical?: string;
  policy?: string;
  acknowledgments?: string;
  hiring?: string;
  languages?: string;
  mode: "generate" | "validate";
  text?: string;
}

const FIELDS = ["Contact", "Expires", "Encryption", "Acknowledgments", "Preferred-Languages", "Canonical", "Policy", "Hiring", "CSAF"];
const DAY_MS = 86_400_000;

/** Checks a security.txt against RFC 9116. */
function validate(text: string, nowMs: number): { name: string; value: string; status: "good" | "warn" | "bad"; note: string }[] {
  const out: { name: string; value: string; status: "good" | "warn" | "bad"; note: string }[] = [];
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.startsWith("#") && !l.startsWith("-----") && !/^Hash:/i.test(l));
  let contacts = 0;
  let expires = 0;
  for (const line of lines) {
    const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!m) {
      out.push({ name: "(line)", value: line.slice(0, 100), status: "bad", note: "not a Field: value line" });
      continue;
    }
    const given = m[1] ?? "";
    const name = FIELDS.find((f) => f.toLowerCase() === given.toLowerCase()) ?? given;
    const value = (m[2] as string).trim();
    let status: "good" | "warn" | "bad" = "good";
    let note = "";
    if (name === "Contact") {
      contacts++;
      if (!/^(mailto:|https:\/\/|tel:)/.test(value)) [status, note] = ["bad", "a Contact is a mailto:, https:// or tel: URI"];
    } else if (name === "Expires") {
      expires++;
      const t = Date.parse(value);
      if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) [status, note] = ["bad", "Expires is an RFC 3339 date-time"];
      else if (t < nowMs) [status, note] = ["bad", "expired: the file must not be trusted"];
      else if (t - nowMs > 366 * DAY_MS) [status, note] = ["warn", "more than a year ahead (RFC 9116 recommends less)"];
    } else if (["Encryption", "Acknowledgments", "Canonical", "Policy", "Hiring", "CSAF"].includes(name)) {
      if (!/^https:\/\//.test(value) && !(name === "Encryption" && /^(dns|openpgp4fpr):/.test(value))) [status, note] = ["bad", `${name} must be an https:// URI`];
    } else if (name !== "Preferred-Languages") [status, note] = ["warn", "not a field of RFC 9116"];
    out.push({ name, value, status, note });
  }
  if (contacts === 0) out.push({ name: "Contact", value: "", status: "bad", note: "required: at least one Contact" });
  if (expires !== 1) out.push({ name: "Expires", value: "", status: "bad", note: expires === 0 ? "required: exactly one Expires" : "Expires must appear once" });
  return out;
}

export const securityTxtGenerator = defineUtility<Input>({
  id: "security_txt_generator",
  group: "seo",
  title: "security.txt generator",
  description:
    "Builds /.well-known/security.txt per RFC 9116 (Contact, Expires within a year, Encryption, Policy, Preferred-Languages, Canonical, Acknowledgments, Hiring), or validates a pasted file",
  net: false,
  file: false,
  fields: [
    { name: "contacts", type: "list", label: "Contacts (mailto:, https:, tel:)", max: 20 },
    { name: "expires_days", type: "int", label: "Expires in, days", default: 365, min: 1, max: 365 },
    { name: "encryption", type: "url", label: "Encryption key URL" },
    { name: "canonical", type: "url", label: "Canonical URL of the file" },
    { name: "policy", type: "url", label: "Disclosure policy URL" },
    { name: "acknowledgments", type: "url", label: "Acknowledgments URL" },
    { name: "hiring", type: "url", label: "Security jobs URL" },
    { name: "languages", type: "str", label: "Preferred languages (ru, en)", max: 100 },
    { name: "mode", type: "sel", label: "Mode", options: ["generate", "validate"], default: "generate" },
    { name: "text", type: "text", label: "A security.txt to validate", max: 50_000 },
  ],
  example: { contacts: ["mailto:security@example.com", "https://example.com/security"], expires_days: 180, canonical: "https://example.com/.well-known/security.txt", languages: "ru, en" },
  run(i, ports) {
    if (i.mode === "validate") {
      if (i.text === undefined) throw new UtilityError("bad_param", "input.text is required in validate mode", "input.text");
      const fields = validate(i.text, ports.nowMs);
      return { result: { text: i.text, fields, valid: fields.every((f) => f.status !== "bad") }, blocks: { tables: [{ title: "Fields", columns: ["field", "value", "status", "note"], rows: fields.map((f) => [f.name, f.value, f.status, f.note]) }] } };
    }
    const contacts = i.contacts ?? [];
    if (contacts.length === 0) throw new UtilityError("bad_param", "input.contacts is required in generate mode", "input.contacts");
    for (const c of contacts) {
      if (!/^(mailto:|https:\/\/|tel:)/.test(c) && !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(c)) throw new UtilityError("bad_param", `input.contacts has "${c}"; a contact is mailto:, https:// or tel:`, "input.contacts");
    }
    const expires = new Date(Math.floor((ports.nowMs + i.expires_days * DAY_MS) / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");
    const lines = [
      ...contacts.map((c) => `Contact: ${c.includes(":") ? c : `mailto:${c}`}`),
      `Expires: ${expires}`,
      ...(i.encryption ? [`Encryption: ${i.encryption}`] : []),
      ...(i.acknowledgments ? [`Acknowledgments: ${i.acknowledgments}`] : []),
      ...(i.languages ? [`Preferred-Languages: ${i.languages}`] : []),
      ...(i.canonical ? [`Canonical: ${i.canonical}`] : []),
      ...(i.policy ? [`Policy: ${i.policy}`] : []),
      ...(i.hiring ? [`Hiring: ${i.hiring}`] : []),
    ];
    const text = `${lines.join("\n")}\n`;
    const fields = validate(text, ports.nowMs);
    return { result: { text, fields, valid: fields.every((f) => f.status !== "bad") }, blocks: { code: [{ lang: "text", text, filename: ".well-known/security.txt" }] } };
  },
});
