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

/** The deepest nesting of arrays and objects in a JSON text, counted up to `stopAbove` + 1. */
export function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > stopAbove) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
