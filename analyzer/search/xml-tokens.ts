// A streaming XML tokenizer for the parts of an XLSX workbook: it is fed text a chunk at a time
// and calls its handler for each tag and each text between tags, holding only the unfinished tail
// of the last chunk. Enough XML for spreadsheets (elements, attributes, entities, CDATA,
// comments); no DTDs, so no entity expansion to bomb with.

/** What a tokenizer reports; names are local (a prefix such as `x:` is dropped). */
export interface XmlHandler {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Raw text between tags (entities not yet decoded); called only while wantsText() holds. */
  text(raw: string): void;
  wantsText(): boolean;
}

/** Longest run of text or single tag held between chunks (a cell's text is at most 32,767 characters in Excel). */
const MAX_PENDING = 1024 * 1024;

/** Raised for XML the tokenizer cannot read: a tag or a text run longer than it holds. */
export class XmlTooLongError extends Error {}

export class XmlTokenizer {
  private pending = "";

  constructor(private readonly handler: XmlHandler) {}

  write(chunk: string): void {
    const buf = this.pending + chunk;
    const h = this.handler;
    let i = 0;
    for (;;) {
      const lt = buf.indexOf("<", i);
      if (lt < 0) break;
      if (lt > i && h.wantsText()) h.text(buf.slice(i, lt));
      if (buf.startsWith("<!--", lt)) {
        const end = buf.indexOf("-->", lt + 4);
        if (end < 0) return this.hold(buf, lt);
        i = end + 3;
        continue;
      }
      if (buf.startsWith("<![CDATA[", lt)) {
        const end = buf.indexOf("]]>", lt + 9);
        if (end < 0) return this.hold(buf, lt);
        if (h.wantsText()) h.text(escapeText(buf.slice(lt + 9, end)));
        i = end + 3;
        continue;
      }
      const gt = buf.indexOf(">", lt + 1);
      if (gt < 0) return this.hold(buf, lt);
      const c = buf.charCodeAt(lt + 1);
      if (c === 47 /* / */) h.close(localName(buf.slice(lt + 2, gt).trim()));
      else if (c !== 63 /* ? */ && c !== 33 /* ! */) {
        const selfClosing = buf.charCodeAt(gt - 1) === 47;
        const body = buf.slice(lt + 1, selfClosing ? gt - 1 : gt);
        const space = body.search(/\s/);
        const name = localName(space < 0 ? body : body.slice(0, space));
        h.open(name, space < 0 ? "" : body.slice(space), selfClosing);
        if (selfClosing) h.close(name);
      }
      i = gt + 1;
    }
    // Text after the last tag waits for the tag that ends it.
    this.hold(buf, i);
  }

  private hold(buf: string, from: number): void {
    this.pending = buf.slice(from);
    if (this.pending.length > MAX_PENDING) throw new XmlTooLongError(`a tag or text longer than ${MAX_PENDING} characters`);
  }
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(":");
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Text with XML's entities and character references decoded. */
export function decodeXml(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
    if (ref[0] !== "#") return NAMED[ref] as string;
    const code = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

const ATTRS = new Map<string, RegExp>();

/** An attribute's value from a tag's attribute text, decoded; null when absent. */
export function attr(attrs: string, name: string): string | null {
  let re = ATTRS.get(name);
  if (!re) ATTRS.set(name, (re = new RegExp(`(?:^|\\s)(?:[\\w-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const hit = re.exec(attrs);
  return hit ? decodeXml(hit[1] ?? hit[2] ?? "") : null;
}
