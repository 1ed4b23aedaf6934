// The shape of a guide page (GET /guides/{id}): topical Russian texts, one section per check.
// Pure data. In prose, `backticks` mark code (rendered as <code>) and a blank line starts a new
// paragraph; everything else is plain text, escaped when rendered.

/** A sample shown under a section: a configuration fragment, markup, a DNS record or a command. */
export interface Snippet {
  /** What the sample is, e.g. "nginx" or "robots.txt". */
  readonly caption: string;
  readonly code: string;
}

/** One check's part of a guide; the page anchors it by the check's code (/guides/{id}#{code}). */
export interface GuideSection {
  readonly code: string;
  readonly heading: string;
  /** What goes wrong and why it matters to the site and its visitors. */
  readonly problem: string;
  /** How Svc decides: what it reads and its exact thresholds (restating the check's run()). */
  readonly rule: string;
  /** How to put it right. */
  readonly fix: string;
  /** Concrete examples of the fix. */
  readonly examples: readonly Snippet[];
  /** How to see that the fix works, before and with Svc. */
  readonly verify: string;
}

export interface Guide {
  /** Kebab-case slug, the page's address: /guides/{id}. */
  readonly id: string;
  readonly title: string;
  readonly intro: string;
  readonly sections: readonly GuideSection[];
}
