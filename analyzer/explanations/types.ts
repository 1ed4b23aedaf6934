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

export interface GuideRef {
  id: string;
  title: string;
  url: string | null;
}

export interface Explanation {
  hint: { ru: HintText; en: HintText };
  /** Russian always; English where written (served for lang=en when present). */
  plain: { ru: PlainText; en?: PlainText };
  /** A guide page Svc serves; null while none exists. */
  guide: GuideRef | null;
}
