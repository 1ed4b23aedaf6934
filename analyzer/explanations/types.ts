// The shape of a check's explanation texts (spec GET /explain/{code}). Pure data, no I/O.

/** What the check looks at, what passes, what fails, and the terms it uses ("term — meaning"). */
export interface HintText {
  what: string;
  good: string;
  bad: string;
  glossary: readonly string[];
}

/** The same for a site owner without the jargon: why it matters, what fixing brings, the effort and who does it. */
export interface PlainText {
  name: string;
  what: string;
  why: string;
  benefit: string;
  effort: string;
  who: string;
}

/** The guide section Svc serves for a check (analyzer/guides). */
export interface GuideRef {
  id: string;
  title: string;
  /** The section's path, /guides/{id}#{code}; the gateway answers it as an absolute URL. */
  url: string;
}

/** The texts of one check, as its display group's file writes them. */
export interface ExplanationText {
  hint: { ru: HintText; en: HintText };
  /** Russian always; English where written (served for lang=en when present). */
  plain: { ru: PlainText; en?: PlainText };
}

export interface Explanation extends ExplanationText {
  /** Every check has one: taken from the guides catalogue, not written in the text files. */
  guide: GuideRef;
}
