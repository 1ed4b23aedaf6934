import { UtilityError } from "../utility.ts";

// What a QR code holds for each kind (the de-facto formats phones read): a URL as is; Wi-Fi as
// WIFI:T:…;S:…;P:…;H:…;; (with \ escapes); a contact as vCard 3.0; mailto:, SMSTO: and geo:.
// Structured kinds take their parts as "key: value" (or key=value) lines in `content`.

export type QrKind = "text" | "url" | "wifi" | "vcard" | "email" | "sms" | "geo";

const bad = (why: string) => new UtilityError("bad_param", why, "input.content");

function fieldsOf(content: string, allowed: readonly string[], kind: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of content.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const m = /^\s*([A-Za-z_]+)\s*[:=]\s*(.*)$/.exec(line);
    if (!m) throw bad(`${kind} takes "key: value" lines (${allowed.join(", ")}); "${line.slice(0, 40)}" is not one`);
    const key = (m[1] as string).toLowerCase();
    if (!allowed.includes(key)) throw bad(`${kind} has no key ${key} (its keys: ${allowed.join(", ")})`);
    out.set(key, (m[2] as string).trim());
  }
  return out;
}

const wifiEscape = (s: string) => s.replace(/([\\;,:"])/g, "\\$1");
const vEscape = (s: string) => s.replace(/([\\;,])/g, "\\$1");

type Builder = (content: string) => string;

const BUILDERS: Readonly<Record<QrKind, Builder>> = {
  text: (c) => c,
  url(c) {
    const s = c.trim();
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
    try {
      const u = new URL(withScheme);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
      return u.href;
    } catch {
      throw bad(`"${s.slice(0, 80)}" is not an http(s) URL`);
    }
  },
  wifi(c) {
    const f = fieldsOf(c, ["ssid", "password", "type", "hidden"], "wifi");
    const ssid = f.get("ssid");
    if (!ssid) throw bad("wifi needs an ssid line");
    const type = (f.get("type") ?? (f.get("password") ? "WPA" : "nopass")).toUpperCase();
    if (!["WPA", "WEP", "NOPASS", "SAE"].includes(type)) throw bad("wifi type is WPA, WEP, SAE or nopass");
    const hidden = f.get("hidden") === "true" ? "H:true;" : "";
    return `WIFI:T:${type === "NOPASS" ? "nopass" : type};S:${wifiEscape(ssid)};${type === "NOPASS" ? "" : `P:${wifiEscape(f.get("password") ?? "")};`}${hidden};`;
  },
  vcard(c) {
    const f = fieldsOf(c, ["name", "org", "title", "phone", "email", "url", "address", "note"], "vcard");
    const name = f.get("name");
    if (!name) throw bad("vcard needs a name line");
    const parts = name.split(/\s+/);
    const last = parts.length > 1 ? (parts.pop() as string) : "";
    const lines = ["BEGIN:VCARD", "VERSION:3.0", `N:${vEscape(last)};${vEscape(parts.join(" "))};;;`, `FN:${vEscape(name)}`];
    const add = (key: string, tag: string) => f.get(key) && lines.push(`${tag}:${vEscape(f.get(key) as string)}`);
    add("org", "ORG");
    add("title", "TITLE");
    add("phone", "TEL;TYPE=CELL");
    add("email", "EMAIL");
    add("url", "URL");
    add("address", "ADR;TYPE=WORK");
    add("note", "NOTE");
    lines.push("END:VCARD");
    return lines.join("\r\n");
  },
  email(c) {
    const f = fieldsOf(c, ["to", "subject", "body"], "email");
    const to = f.get("to");
    if (!to || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to)) throw bad("email needs a to line with an address");
    const q = [f.get("subject") ? `subject=${encodeURIComponent(f.get("subject") as string)}` : "", f.get("body") ? `body=${encodeURIComponent(f.get("body") as string)}` : ""].filter(Boolean).join("&");
    return `mailto:${to}${q ? `?${q}` : ""}`;
  },
  sms(c) {
    const f = fieldsOf(c, ["phone", "body"], "sms");
    const phone = (f.get("phone") ?? "").replace(/[\s()-]/g, "");
    if (!/^\+?\d{3,15}$/.test(phone)) throw bad("sms needs a phone line with a number");
    return `SMSTO:${phone}:${f.get("body") ?? ""}`;
  },
  geo(c) {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*[,; ]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(c);
    const lat = Number(m?.[1]);
    const lon = Number(m?.[2]);
    if (!m || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw bad('geo takes "latitude, longitude" in degrees (55.7558, 37.6173)');
    return `geo:${lat},${lon}`;
  },
};

export function qrPayload(kind: QrKind, content: string): string {
  return BUILDERS[kind](content);
}
