// The items of a page's JSON-LD: each top-level object, array element and @graph member, with its
// types. Blocks that do not parse are jsonld_syntax's finding and are skipped here.

export type SchemaNode = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The items of JSON-LD blocks (raw text), in order. */
export function schemaNodes(blocks: readonly string[]): SchemaNode[] {
  const out: SchemaNode[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, depth));
    if (!isRecord(value)) return;
    if (value["@type"] !== undefined) out.push(value);
    if (depth < 3 && value["@graph"] !== undefined) visit(value["@graph"], depth + 1);
  };
  for (const block of blocks) {
    try {
      visit(JSON.parse(block), 0);
    } catch {
      // not JSON: jsonld_syntax reports it
    }
  }
  return out;
}

/** An item's types, without a schema.org prefix: "https://schema.org/Product" → "Product". */
export function typesOf(node: SchemaNode): string[] {
  const t = node["@type"];
  return (Array.isArray(t) ? t : [t]).filter((v): v is string => typeof v === "string").map((v) => v.replace(/^https?:\/\/(www\.)?schema\.org\//i, ""));
}

/** Whether a property carries a value: not missing, null, blank or an empty list. */
export function hasValue(node: SchemaNode, property: string): boolean {
  const v = node[property];
  if (v === undefined || v === null) return false;
  if (typeof v === "string") return v.trim() !== "";
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

export { isRecord };
