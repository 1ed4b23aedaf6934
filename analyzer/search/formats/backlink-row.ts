import { cleanText } from "../cells.ts";

/** The host of a link's source page, lower case, without "www."; '' when it is not a URL. */
export function sourceDomainOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** A link URL as stored: cleaned, fragment dropped (reference §4: dedupe on normalized URLs). */
export function linkUrl(cell: string): string {
  const s = cleanText(cell);
  const hash = s.indexOf("#");
  return hash >= 0 ? s.slice(0, hash) : s;
}
