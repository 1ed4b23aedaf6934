/**
 * The schema types a JSON-LD block declares: `@type` of the top-level node(s) and of each node of
 * an `@graph` (nested property values such as an Offer inside a Product are not listed).
 * Returns null when the block is not valid JSON.
 */
export function jsonLdTypes(block: string): string[] | null {
  let data: unknown;
  try {
    data = JSON.parse(block);
  } catch {
    return null;
  }
  const types: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const obj = node as Record<string, unknown>;
    const t = obj["@type"];
    for (const v of Array.isArray(t) ? t : [t]) if (typeof v === "string" && v !== "") types.push(v);
    if (depth < 3 && obj["@graph"] !== undefined) visit(obj["@graph"], depth + 1);
  };
  visit(data, 0);
  return types;
}

/** A microdata itemtype as a type name: `https://schema.org/Product` → `Product`; other vocabularies stay URLs. */
export function microdataType(itemtype: string): string {
  const m = /^https?:\/\/(?:www\.)?schema\.org\/([^/?#]+)$/i.exec(itemtype);
  return m ? (m[1] as string) : itemtype;
}
