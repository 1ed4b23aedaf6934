/** One entry of an HTTP `Link` header (RFC 8288), href resolved against the page URL. */
export interface LinkHeaderEntry {
  readonly href: string;
  /** Lower-case rel tokens. */
  readonly rel: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/** Parses `Link: <a>; rel="canonical", <b>; rel="alternate"; hreflang="de"`. Unparsable targets are skipped. */
export function parseLinkHeader(value: string, base: string): LinkHeaderEntry[] {
  const out: LinkHeaderEntry[] = [];
  const entry = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const m of value.matchAll(entry)) {
    const params: Record<string, string> = {};
    for (const p of (m[2] ?? "").matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*(?:"([^"]*)"|([^;,]*)))?/g)) {
      params[(p[1] as string).toLowerCase()] = (p[2] ?? p[3] ?? "").trim();
    }
    let href: string;
    try {
      href = new URL((m[1] as string).trim(), base).href;
    } catch {
      continue;
    }
    out.push({ href, rel: (params.rel ?? "").toLowerCase().split(/\s+/).filter(Boolean), params });
  }
  return out;
}
