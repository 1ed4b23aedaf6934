import { ApiError } from "../errors.ts";

/** Deeper than any body of the contract needs (utilities' inputs are a few levels deep). */
export const MAX_BODY_DEPTH = 32;

/**
 * Parses a JSON request body. The nesting depth is measured on the text first, in one linear
 * pass, so that nothing after this — the idempotency fingerprint, validation, handlers — ever walks
 * a body deep enough to exhaust the stack (6 KB of brackets is 3,000 levels).
 */
export function parseJsonBody(text: string): unknown {
  const depth = nestingDepth(text, MAX_BODY_DEPTH);
  if (depth > MAX_BODY_DEPTH) throw new ApiError("bad_request", `the JSON body is nested deeper than ${MAX_BODY_DEPTH} levels`, { details: { reason: "too_deep" } });
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "the body is not valid JSON");
  }
}

/**
 * The deepest nesting of arrays and objects in a JSON text, counted up to `stopAbove` + 1. Strings
 * are skipped with indexOf (native, no per-character loop in JS): a utility's body is mostly one
 * base64 string of up to 7 MB, which a character loop took 10–20 ms to walk.
 */
export function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i + 1);
      if (i < 0) return deepest;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The index of the quote that closes a string whose content starts at `from` (-1: it never closes). */
function stringEnd(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q >= 0) {
    // A quote preceded by an odd run of backslashes is escaped.
    let slashes = 0;
    for (let j = q - 1; j >= from && text.charCodeAt(j) === 0x5c; j--) slashes++;
    if (slashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}
