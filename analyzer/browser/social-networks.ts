// The social networks whose profile links GET /social/{host} recognises: one row each, matched on
// the link's host (the name or a subdomain of it) and, where a network has non-profile paths
// (share buttons, intents), a path that must not be one of them.

export interface SocialNetwork {
  readonly id: string;
  readonly hosts: readonly string[];
  /** Paths that are not a profile (share and intent links). */
  readonly notProfile?: RegExp;
}

export const SOCIAL_NETWORKS: readonly SocialNetwork[] = Object.freeze([
  { id: "facebook", hosts: ["facebook.com", "fb.com", "fb.me"], notProfile: /^\/(sharer|share|dialog|plugins|tr)\b/ },
  { id: "x", hosts: ["x.com", "twitter.com"], notProfile: /^\/(intent|share|home)\b/ },
  { id: "instagram", hosts: ["instagram.com"] },
  { id: "linkedin", hosts: ["linkedin.com"], notProfile: /^\/(shareArticle|sharing)\b/i },
  { id: "youtube", hosts: ["youtube.com", "youtu.be"], notProfile: /^\/(watch|embed)\b/ },
  { id: "tiktok", hosts: ["tiktok.com"] },
  { id: "pinterest", hosts: ["pinterest.com"], notProfile: /^\/pin\/create\b/ },
  { id: "telegram", hosts: ["t.me", "telegram.me"], notProfile: /^\/share\b/ },
  { id: "vk", hosts: ["vk.com", "vk.ru"], notProfile: /^\/share\.php\b/ },
  { id: "ok", hosts: ["ok.ru"] },
  { id: "github", hosts: ["github.com"] },
  { id: "reddit", hosts: ["reddit.com"], notProfile: /^\/submit\b/ },
  { id: "threads", hosts: ["threads.net", "threads.com"] },
  { id: "mastodon", hosts: ["mastodon.social"] },
  { id: "whatsapp", hosts: ["wa.me", "whatsapp.com"], notProfile: /^\/send\b/ },
]);

/** The network of a profile link, or null (another site, or a share link). */
export function networkOf(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/^www\.|^m\./, "");
  const network = SOCIAL_NETWORKS.find((n) => n.hosts.some((h) => host === h || host.endsWith(`.${h}`)));
  if (!network || url.pathname === "/" || url.pathname === "") return null;
  if (network.notProfile?.test(url.pathname)) return null;
  return network.id;
}
