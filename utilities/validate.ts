import { domainToASCII } from "node:url";
import { parseColor } from "./shared/color.ts";
import { sniffFile } from "./shared/sniff.ts";
import { UtilityError, type FieldSpec, type Utility } from "./utility.ts";

// The catalogue's input conventions (utilities-catalogue.md §3), applied from a utility's field
// list: every refusal is bad_param and names the field as input.<name>.

/** Largest text of any field (the spec's 200,000 characters). */
export const TEXT_MAX_CHARS = 200_000;
/** Largest decoded file (the spec's 5 MB). */
export const FILE_MAX_BYTES = 5 * 1024 * 1024;
const STR_MAX_CHARS = 2_000;
const LIST_MAX_ITEMS = 10_000;
const LIST_ITEM_MAX_CHARS = 10_000;

function bad(field: string, message: string): UtilityError {
  return new UtilityError("bad_param", `input.${field} ${message}`, `input.${field}`);
}

/** "1 234,5" and "1234.5" alike (the catalogue's num convention). */
export function parseNumber(raw: string): number | null {
  const compact = raw.trim().replace(/[\s\u00a0\u202f']/g, "");
  if (!/^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/.test(compact)) return null;
  const n = Number(compact.replace(",", "."));
  return Number.isFinite(n) ? n : null;
}

function text(field: FieldSpec, value: unknown, fallbackMax: number): string {
  if (typeof value !== "string") throw bad(field.name, "must be a string");
  const max = field.max ?? fallbackMax;
  if (value.length > max) throw bad(field.name, `is longer than ${max} characters (${value.length})`);
  return value;
}

function listOf(field: FieldSpec, value: unknown): string[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === "string") items = value.split(/\r?\n/);
  else throw bad(field.name, "must be a list: a JSON array or text with one item per line");
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string" && typeof item !== "number") throw bad(field.name, "items must be strings");
    const s = String(item).trim();
    if (s.length > LIST_ITEM_MAX_CHARS) throw bad(field.name, `has an item longer than ${LIST_ITEM_MAX_CHARS} characters`);
    if (s !== "") out.push(s);
  }
  const max = field.max ?? LIST_MAX_ITEMS;
  if (out.length > max) throw bad(field.name, `has ${out.length} items; at most ${max}`);
  if (out.length === 0) throw bad(field.name, "is empty");
  return out;
}

function numberIn(field: FieldSpec, n: number): number {
  if (field.min !== undefined && n < field.min) throw bad(field.name, `must be at least ${field.min}`);
  if (field.max !== undefined && n > field.max) throw bad(field.name, `must be at most ${field.max}`);
  return n;
}

function url(field: FieldSpec, value: unknown): string {
  const raw = text(field, value, STR_MAX_CHARS).trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    throw bad(field.name, `is not a URL: "${raw.slice(0, 100)}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw bad(field.name, "must be an http or https URL");
  if (parsed.username || parsed.password) throw bad(field.name, "must not carry credentials");
  if (!parsed.hostname.includes(".") && parsed.hostname !== "localhost") throw bad(field.name, `has no usable host: "${parsed.hostname}"`);
  return parsed.href;
}

function host(field: FieldSpec, value: unknown): string {
  const raw = text(field, value, 253).trim().replace(/\.$/, "");
  if (/[/\s:@?#]/.test(raw)) throw bad(field.name, "must be a domain name, not a URL");
  const ascii = domainToASCII(raw.toLowerCase());
  if (ascii === "" || !ascii.includes(".")) throw bad(field.name, `is not a domain name: "${raw.slice(0, 100)}"`);
  return ascii;
}

function file(field: FieldSpec, value: unknown, utility: Utility): Uint8Array {
  // Raw bytes come from a multipart/form-data body (the file part) or a direct caller; JSON carries base64.
  if (value instanceof Uint8Array) return fileBytes(field, value, utility);
  if (typeof value !== "string") throw bad(field.name, "must be a base64 string");
  let data = value.startsWith("data:") ? value.replace(/^data:[^,]*;base64,/, "") : value;
  const max = field.max ?? FILE_MAX_BYTES;
  // Checked before decoding: the decoded size is at most 3/4 of the text.
  if (Math.floor((data.length * 3) / 4) > max + 2) throw bad(field.name, `is larger than ${max} bytes`);
  // Fast path: decode, and the length proves the text clean. Node's decoder skips what is not in
  // the alphabet, so any such character (or whitespace) leaves fewer bytes than the length of a
  // clean text gives. Only then is the text scanned (whitespace dropped, then the strict check):
  // two regular-expression passes and a copy over a 7 MB string were most of a resize's overhead.
  let decoded = Buffer.from(data, "base64");
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  if (data.length % 4 === 1 || decoded.length !== Math.floor(((data.length - pad) * 3) / 4)) {
    data = data.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length % 4 === 1) throw bad(field.name, "is not valid base64");
    decoded = Buffer.from(data, "base64");
  }
  // A plain Uint8Array over the decoded bytes (no copy).
  return fileBytes(field, new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length), utility);
}

/** The checks on a file's bytes (size, kind); returns the same view, never a copy. */
function fileBytes(field: FieldSpec, bytes: Uint8Array, utility: Utility): Uint8Array {
  const max = field.max ?? FILE_MAX_BYTES;
  if (bytes.length > max) throw bad(field.name, `is larger than ${max} bytes`);
  if (bytes.length === 0) throw bad(field.name, "is empty");
  const kinds = utility.fileKinds ?? ["any"];
  if (!kinds.includes("any")) {
    const kind = sniffFile(bytes);
    // An SVG is text too: a utility that takes text files takes it.
    if (!kind || !(kinds.includes(kind) || (kind === "svg" && kinds.includes("text")))) throw bad(field.name, `must be ${kinds.join(" or ")}; the bytes look like ${kind ?? "an unknown type"}`);
  }
  return bytes;
}

function one(field: FieldSpec, value: unknown, utility: Utility): unknown {
  switch (field.type) {
    case "str":
      return text(field, value, STR_MAX_CHARS);
    case "text":
      return text(field, value, TEXT_MAX_CHARS);
    case "int": {
      const n = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
      if (typeof n !== "number" || !Number.isSafeInteger(n)) throw bad(field.name, "must be an integer");
      return numberIn(field, n);
    }
    case "num": {
      const n = typeof value === "string" ? parseNumber(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n)) throw bad(field.name, "must be a number");
      return numberIn(field, n);
    }
    case "bool":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "1") return true;
      if (value === "false" || value === "0") return false;
      throw bad(field.name, "must be true or false");
    case "sel": {
      const s = typeof value === "number" ? String(value) : value;
      if (typeof s !== "string" || !(field.options ?? []).includes(s)) throw bad(field.name, `must be one of ${(field.options ?? []).join(", ")}`);
      return s;
    }
    case "multi": {
      const items = typeof value === "string" ? value.split(",").map((s) => s.trim()).filter(Boolean) : value;
      if (!Array.isArray(items)) throw bad(field.name, "must be a list of options");
      const out: string[] = [];
      for (const item of items as unknown[]) {
        const s = typeof item === "number" ? String(item) : item;
        if (typeof s !== "string" || !(field.options ?? []).includes(s)) throw bad(field.name, `items must be among ${(field.options ?? []).join(", ")}`);
        if (!out.includes(s)) out.push(s);
      }
      if (out.length === 0) throw bad(field.name, "is empty");
      if (field.max !== undefined && out.length > field.max) throw bad(field.name, `takes at most ${field.max} items`);
      return out;
    }
    case "list":
      return listOf(field, value);
    case "json":
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw bad(field.name, "must be a JSON object");
      if (JSON.stringify(value).length > (field.max ?? TEXT_MAX_CHARS)) throw bad(field.name, "is too large");
      return value;
    case "color": {
      const s = text(field, value, 100);
      if (!parseColor(s)) throw bad(field.name, `is not a colour: "${s}" (#rgb, #rrggbb, #rrggbbaa, rgb(), hsl() or a CSS name)`);
      return s.trim();
    }
    case "url":
      return url(field, value);
    case "host":
      return host(field, value);
    case "file":
      return file(field, value, utility);
  }
}

/**
 * The validated input of a utility: known fields only, each converted to its type with its
 * default filled in. Throws UtilityError(bad_param) naming the first field at fault.
 */
export function validateInput(utility: Utility, input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) throw new UtilityError("bad_param", "input must be an object of the utility's fields", "input");
  const given = input as Record<string, unknown>;
  const known = new Set(utility.fields.map((f) => f.name));
  for (const name of Object.keys(given)) {
    if (known.has(name)) continue;
    if (name === "file_name" && utility.file) continue;
    throw bad(name, `is not a field of ${utility.id} (its fields: ${[...known].join(", ")})`);
  }
  const out: Record<string, unknown> = {};
  if (utility.file && typeof given.file_name === "string") out.file_name = given.file_name.slice(0, 255);
  for (const field of utility.fields) {
    const value = given[field.name];
    if (value === undefined || value === null) {
      if (field.required) throw bad(field.name, "is required");
      if (field.default !== undefined) out[field.name] = structuredClone(field.default);
      continue;
    }
    if ((value === "" && !field.allowEmpty) || (Array.isArray(value) && value.length === 0)) throw bad(field.name, "is empty");
    out[field.name] = one(field, value, utility);
  }
  for (const [a, b] of utility.oneOf ?? []) {
    if (out[a] === undefined && out[b] === undefined) throw new UtilityError("bad_param", `input.${a} or input.${b} is required`, `input.${a}`);
  }
  return out;
}
