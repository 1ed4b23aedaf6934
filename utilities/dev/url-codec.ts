import { domainToUnicode } from "node:url";
import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  input: string;
  mode: "parse" | "encode_component" | "encode_uri" | "decode" | "clean";
}

/** Tracking parameters that change nothing on the page. */
const TRACKING = /^(utm_[a-z_]+|gclid|gbraid|wbraid|dclid|yclid|ysclid|fbclid|msclkid|_openstat|mc_cid|mc_eid|igshid|_ga|_gl|from|roistat)$/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new UtilityError("tool_failed", "the text has a malformed %-escape (a % not followed by two hex digits of valid UTF-8)");
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw.trim());
  } catch {
    throw new UtilityError("tool_failed", `not an absolute URL: "${raw.trim().slice(0, 100)}"`);
  }
}

export const urlCodec = defineUtility<Input>({
  id: "url_codec",
  group: "dev",
  title: "URL encoder, decoder & parser",
  description:
    "URL encode/decode (component or full URI, + as space). Parses a URL into scheme, host (Unicode and punycode), port, path, a table of decoded query parameters and the fragment. Clean mode strips utm_*, gclid, yclid, fbclid and other tracking parameters",
  net: false,
  file: false,
  fields: [
    { name: "input", type: "text", label: "URL or text", required: true, max: 100_000 },
    { name: "mode", type: "sel", label: "Mode", options: ["parse", "encode_component", "encode_uri", "decode", "clean"], default: "parse" },
  ],
  example: { input: "https://xn--e1afmkfd.xn--p1ai:8443/%D0%BA%D0%B0%D1%82%D0%B0%D0%BB%D0%BE%D0%B3?q=%D0%B4%D0%B8%D0%B2%D0%B0%D0%BD+%D1%83%D0%B3%D0%BB%D0%BE%D0%B2%D0%BE%D0%B9&utm_source=ya&page=2#reviews", mode: "parse" },
  run(i) {
    if (i.mode === "encode_component" || i.mode === "encode_uri" || i.mode === "decode") {
      const text = i.mode === "encode_component" ? encodeURIComponent(i.input) : i.mode === "encode_uri" ? encodeURI(i.input) : decode(i.input);
      return { result: { text }, blocks: { code: [{ lang: "text", text }] } };
    }
    const url = parseUrl(i.input);
    if (i.mode === "clean") {
      const removed: string[] = [];
      for (const key of [...new Set(url.searchParams.keys())]) {
        if (TRACKING.test(key)) {
          removed.push(key);
          url.searchParams.delete(key);
        }
      }
      const text = url.href.replace(/\?$/, "").replace(/\?#/, "#");
      return { result: { text, removed }, blocks: { code: [{ lang: "text", text }], pairs: [{ label: "Removed", value: removed.join(", ") || "nothing" }] } };
    }
    const params = [...url.searchParams].map(([name, value]) => ({ name, value }));
    const parts = {
      scheme: url.protocol.replace(/:$/, ""),
      host: url.hostname,
      host_unicode: domainToUnicode(url.hostname) || url.hostname,
      port: url.port === "" ? null : Number(url.port),
      path: url.pathname,
      path_decoded: decode(url.pathname.replace(/\+/g, "%2B")),
      query: url.search.replace(/^\?/, ""),
      fragment: url.hash.replace(/^#/, ""),
      username: url.username || null,
    };
    return {
      result: { parts, params },
      blocks: {
        pairs: Object.entries(parts).map(([label, value]) => ({ label, value: value === null ? "—" : String(value) })),
        tables: [{ title: "Query parameters", columns: ["name", "value"], rows: params.map((p) => [p.name, p.value]) }],
      },
    };
  },
});
