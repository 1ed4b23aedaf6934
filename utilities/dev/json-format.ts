import type JSON5Type from "json5";
import { UtilityError, defineUtility } from "../utility.ts";

interface Input {
  json: string;
  mode: "beautify" | "minify" | "validate" | "escape" | "unescape";
  indent: "2" | "4" | "tab";
  sort_keys: boolean;
  json5: boolean;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
}

function depth(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depth));
}

/** Line and column (1-based) of a character offset. */
function lineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, pos);
  const line = before.split("\n").length;
  return { line, col: pos - before.lastIndexOf("\n") };
}

function parseError(text: string, err: Error, json5: boolean, JSON5: typeof JSON5Type): { line: number; col: number; msg: string } {
  if (json5) {
    const e = err as Error & { lineNumber?: number; columnNumber?: number };
    return { line: e.lineNumber ?? 1, col: e.columnNumber ?? 1, msg: err.message.replace(/^JSON5: /, "") };
  }
  const msg = err.message.replace(/ in JSON at position \d+.*$/, "").replace(/, ".*" is not valid JSON$/s, "");
  const at = /at position (\d+)/.exec(err.message);
  if (at) return { ...lineCol(text, Number(at[1])), msg };
  // V8's newer messages leave the position out; JSON5's parser (a superset) pins it down.
  try {
    JSON5.parse(text);
  } catch (e5) {
    const e = e5 as Error & { lineNumber?: number; columnNumber?: number };
    if (e.lineNumber !== undefined) return { line: e.lineNumber, col: e.columnNumber ?? 1, msg };
  }
  return { ...lineCol(text, text.length), msg: `${msg} (JSON5 syntax: comments, trailing commas, single quotes or bare keys)` };
}

export const jsonFormat = defineUtility<Input>({
  id: "json_format",
  group: "dev",
  title: "JSON formatter & validator",
  description:
    "Validates JSON with the error's line and column, beautifies (indent 2/4/tab) or minifies it, sorts keys, accepts JSON5 input, escapes or unescapes it as a string literal",
  net: false,
  file: false,
  fields: [
    { name: "json", type: "text", label: "JSON", required: true },
    { name: "mode", type: "sel", label: "Mode", options: ["beautify", "minify", "validate", "escape", "unescape"], default: "beautify" },
    { name: "indent", type: "sel", label: "Indent", options: ["2", "4", "tab"], default: "2" },
    { name: "sort_keys", type: "bool", label: "Sort keys", default: false },
    { name: "json5", type: "bool", label: "Read JSON5 (comments, trailing commas, single quotes)", default: false },
  ],
  example: { json: '{"b":1,"a":[true,null,{"c":"x"}]}', mode: "beautify", indent: "2", sort_keys: true },
  async run(i) {
    const JSON5 = (await import("json5")).default;
    if (i.mode === "escape") {
      const text = JSON.stringify(i.json);
      return { result: { valid: true, error: null, text, bytes: Buffer.byteLength(text), depth: 0 }, blocks: { code: [{ lang: "json", text }] } };
    }
    if (i.mode === "unescape") {
      let text: unknown;
      try {
        text = JSON.parse(i.json.trim().startsWith('"') ? i.json.trim() : `"${i.json}"`);
      } catch (err) {
        throw new UtilityError("tool_failed", `the text is not a JSON string literal: ${(err as Error).message}`);
      }
      return { result: { valid: true, error: null, text, bytes: Buffer.byteLength(String(text)), depth: 0 }, blocks: { code: [{ lang: "json", text: String(text) }] } };
    }
    let value: unknown;
    try {
      value = i.json5 ? JSON5.parse(i.json) : JSON.parse(i.json);
    } catch (err) {
      const error = parseError(i.json, err as Error, i.json5, JSON5);
      return {
        result: { valid: false, error, text: null, bytes: Buffer.byteLength(i.json), depth: null },
        blocks: { pairs: [{ label: "Valid", value: "no", status: "bad" }, { label: "Error", value: `line ${error.line}, column ${error.col}: ${error.msg}` }] },
      };
    }
    if (i.sort_keys) value = sortKeys(value);
    const indent = i.indent === "tab" ? "\t" : Number(i.indent);
    const text = i.mode === "minify" ? JSON.stringify(value) : JSON.stringify(value, null, indent);
    const d = depth(value);
    return {
      result: { valid: true, error: null, text: i.mode === "validate" ? null : text, bytes: Buffer.byteLength(text), depth: d },
      blocks: {
        pairs: [{ label: "Valid", value: "yes", status: "good" }, { label: "Bytes", value: String(Buffer.byteLength(text)) }, { label: "Depth", value: String(d) }],
        ...(i.mode === "validate" ? {} : { code: [{ lang: "json", text }] }),
      },
    };
  },
});
