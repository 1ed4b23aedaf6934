import { UtilityError, defineUtility, type Warning } from "../utility.ts";
import { detectDelimiter, parseCsv, toCsv } from "../shared/csv.ts";

type Format = "json" | "yaml" | "xml" | "csv" | "toml" | "query";
const FORMATS: Format[] = ["json", "yaml", "xml", "csv", "toml", "query"];

interface Input {
  data: string;
  from: Format;
  to: Format;
  delimiter: "auto" | "comma" | "semicolon" | "tab";
}

const DELIMS = { comma: ",", semicolon: ";", tab: "\t" } as const;
const ATTR = "@_";

/** The parsers, loaded on first use (the catalogue loads without them). */
async function libraries() {
  const [yaml, xml, toml] = await Promise.all([import("js-yaml"), import("fast-xml-parser"), import("smol-toml")]);
  return { yaml, XMLBuilder: xml.XMLBuilder, XMLParser: xml.XMLParser, parseToml: toml.parse, stringifyToml: toml.stringify };
}
type Libraries = Awaited<ReturnType<typeof libraries>>;

function read(i: Input, { yaml, XMLParser, parseToml }: Libraries): unknown {
  switch (i.from) {
    case "json":
      return JSON.parse(i.data);
    case "yaml":
      return yaml.load(i.data);
    case "xml":
      return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: ATTR, parseTagValue: true, processEntities: true }).parse(i.data, true);
    case "toml":
      return parseToml(i.data);
    case "query": {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(i.data.trim().replace(/^\?/, ""))) {
        const prev = out[k];
        out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      return out;
    }
    case "csv": {
      const d = i.delimiter === "auto" ? detectDelimiter(i.data) : DELIMS[i.delimiter];
      const [header, ...rows] = parseCsv(i.data, d);
      if (!header) return [];
      return rows.map((r) => Object.fromEntries(header.map((h, n) => [h, r[n] ?? ""])));
    }
  }
}

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return v === null || v === undefined ? "" : JSON.stringify(v);
}

function write(value: unknown, to: Format, i: Input, warnings: Warning[], { yaml, XMLBuilder, stringifyToml }: Libraries): string {
  switch (to) {
    case "json":
      return JSON.stringify(value, null, 2);
    case "yaml":
      return yaml.dump(value, { lineWidth: -1 });
    case "xml": {
      const single = value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).filter((k) => k !== "?xml").length === 1;
      const root = single ? value : { root: Array.isArray(value) ? { item: value } : value };
      if (!single) warnings.push({ code: "wrapped", text: "XML needs one root element: the data is wrapped in <root>" });
      return new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: ATTR, format: true, indentBy: "  " }).build(root);
    }
    case "toml": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        warnings.push({ code: "wrapped", text: "TOML needs a table at the top: the data is under the key data" });
        value = { data: value };
      }
      const dropNulls = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.filter((x) => x !== null).map(dropNulls);
        if (v === null || typeof v !== "object") return v;
        return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)]));
      };
      if (JSON.stringify(value).includes("null")) warnings.push({ code: "lossy", text: "TOML has no null: null values are left out" });
      return stringifyToml(dropNulls(value));
    }
    case "query": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UtilityError("tool_failed", "a query string needs an object of parameters");
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        for (const item of Array.isArray(v) ? v : [v]) {
          if (item !== null && typeof item === "object") warnings.push({ code: "lossy", text: `${k} is nested: written as JSON` });
          q.append(k, scalar(item));
        }
      }
      return q.toString();
    }
    case "csv": {
      const rows: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
      const header: string[] = [];
      for (const r of rows) if (r !== null && typeof r === "object") for (const k of Object.keys(r)) if (!header.includes(k)) header.push(k);
      if (header.length === 0) return toCsv(rows.map((r) => [scalar(r)]), ",");
      let nested = false;
      const body = rows.map((r) =>
        header.map((h) => {
          const v = (r as Record<string, unknown> | null)?.[h];
          if (v !== null && typeof v === "object") nested = true;
          return scalar(v);
        }),
      );
      if (nested) warnings.push({ code: "lossy", text: "nested values are written as JSON in their cells" });
      const d = i.delimiter === "auto" ? "," : DELIMS[i.delimiter];
      return toCsv([header, ...body], d);
    }
  }
}

export const dataConvert = defineUtility<Input>({
  id: "data_convert",
  group: "dev",
  title: "JSON ⇄ YAML ⇄ XML ⇄ CSV ⇄ TOML",
  description:
    "Converts between JSON, YAML, XML, CSV/TSV, TOML and query strings. Detects the CSV delimiter, reads a header row and XML attributes (prefix @_), and warns about lossy conversions",
  net: false,
  file: false,
  fields: [
    { name: "data", type: "text", label: "Data", required: true },
    { name: "from", type: "sel", label: "From", required: true, options: FORMATS },
    { name: "to", type: "sel", label: "To", required: true, options: FORMATS },
    { name: "delimiter", type: "sel", label: "CSV delimiter", options: ["auto", "comma", "semicolon", "tab"], default: "auto" },
  ],
  example: { data: "name;price;tags\nДиван;25000;sale\nКресло;9900;", from: "csv", to: "yaml", delimiter: "auto" },
  async run(i) {
    const libs = await libraries();
    let value: unknown;
    try {
      value = read(i, libs);
    } catch (err) {
      throw new UtilityError("tool_failed", `the data is not valid ${i.from.toUpperCase()}: ${(err as Error).message.split("\n")[0]}`);
    }
    const warnings: Warning[] = [];
    if (i.from === "csv" || i.from === "query") warnings.push({ code: "strings", text: `${i.from.toUpperCase()} values are all text: numbers stay strings` });
    let text: string;
    try {
      text = write(value, i.to, i, warnings, libs);
    } catch (err) {
      if (err instanceof UtilityError) throw err;
      throw new UtilityError("tool_failed", `the data cannot be written as ${i.to.toUpperCase()}: ${(err as Error).message}`);
    }
    return { result: { text, warnings }, blocks: { code: [{ lang: i.to === "query" ? "text" : i.to, text }] }, warnings };
  },
});
