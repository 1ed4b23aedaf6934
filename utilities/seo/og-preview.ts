import { UtilityError, defineUtility, type Pair, type Warning } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { loadSharp } from "../img/image-input.ts";
import { fetchFollowing, header, netOf, requireHtml } from "../site/net-util.ts";

interface Input {
  url: string;
}

interface Image {
  url: string | null;
  status: number | null;
  type: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  error: string | null;
}

/** How each platform builds its card: text lengths it shows, and its image rules (px, bytes). */
interface Platform {
  readonly name: string;
  readonly title: number;
  readonly description: number;
  readonly minWidth: number;
  readonly minHeight: number;
  /** The size the platform recommends (a smaller image is shown small or cropped). */
  readonly recWidth: number;
  readonly recHeight: number;
  readonly maxBytes: number;
}

const PLATFORMS: readonly Platform[] = [
  { name: "Facebook", title: 88, description: 200, minWidth: 200, minHeight: 200, recWidth: 1200, recHeight: 630, maxBytes: 8 * 1024 * 1024 },
  { name: "VK", title: 80, description: 160, minWidth: 160, minHeight: 160, recWidth: 537, recHeight: 240, maxBytes: 5 * 1024 * 1024 },
  { name: "Telegram", title: 100, description: 200, minWidth: 1, minHeight: 1, recWidth: 600, recHeight: 315, maxBytes: 5 * 1024 * 1024 },
  { name: "X", title: 70, description: 200, minWidth: 300, minHeight: 157, recWidth: 1200, recHeight: 628, maxBytes: 5 * 1024 * 1024 },
  { name: "LinkedIn", title: 70, description: 150, minWidth: 200, minHeight: 200, recWidth: 1200, recHeight: 627, maxBytes: 5 * 1024 * 1024 },
  { name: "WhatsApp", title: 65, description: 80, minWidth: 300, minHeight: 200, recWidth: 1200, recHeight: 630, maxBytes: 600 * 1024 },
];

const IMAGE_MIME = /^image\/(jpeg|png|webp|gif)$/;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export const ogPreview = defineUtility<Input>({
  id: "og_preview",
  group: "seo",
  title: "Social card preview",
  description:
    "Reads the OG/Twitter tags of a URL (with fallbacks), fetches and measures og:image (type, px, bytes) and shows the card as Facebook, VK, Telegram, X, LinkedIn and WhatsApp would render it. Unlike GET /social/{host}: one live URL, nothing stored",
  net: true,
  file: false,
  fields: [{ name: "url", type: "url", label: "URL", required: true }],
  example: { url: "https://example.com/" },
  async run(input, ports) {
    const net = netOf(ports);
    const { res } = await fetchFollowing(net, input.url, { headers: { "user-agent": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)" } });
    requireHtml(res, res.url);
    const { facts } = net.page(res);
    const og = Object.fromEntries(facts.openGraph.map((t) => [t.key, t.content]));
    const tw = Object.fromEntries(facts.twitter.map((t) => [t.key, t.content]));
    const tags: Record<string, string> = { ...og, ...tw };
    // What a platform falls back to when a tag is missing: the twitter: tag, then the page's own.
    const title = og["og:title"] ?? tw["twitter:title"] ?? facts.title ?? "";
    const description = og["og:description"] ?? tw["twitter:description"] ?? facts.metaDescription ?? "";
    const imageRaw = og["og:image"] ?? og["og:image:url"] ?? tw["twitter:image"] ?? null;
    const site = og["og:site_name"] ?? new URL(res.url).hostname;
    const warnings: Warning[] = [];
    const image: Image = { url: null, status: null, type: null, width: null, height: null, bytes: null, error: null };
    let imageData: Uint8Array | null = null;
    if (imageRaw !== null) {
      try {
        image.url = new URL(imageRaw, res.url).href;
      } catch {
        image.error = `"${imageRaw}" is not a URL`;
      }
    }
    if (image.url !== null) {
      try {
        const { res: img } = await fetchFollowing(net, image.url, { headers: { "user-agent": USER_AGENTS.browser } }, 5);
        image.status = img.status;
        image.type = (header(img, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() || null;
        image.bytes = img.body.length;
        if (img.status === 200 && !img.truncated) {
          try {
            const meta = await (await loadSharp())(img.body).metadata();
            image.width = meta.width ?? null;
            image.height = meta.height ?? null;
            if (IMAGE_MIME.test(image.type ?? "")) imageData = img.body;
          } catch {
            image.error = "the image cannot be decoded";
          }
        } else if (img.truncated) image.error = "the image is larger than 5 MB";
      } catch (err) {
        if (!(err instanceof UtilityError)) throw err;
        image.error = err.message;
      }
    }
    const imageOk = image.status === 200 && image.width !== null && image.error === null;
    const platforms = PLATFORMS.map((p) => {
      const problems: string[] = [];
      if (!title) problems.push("no title");
      if (title.length > p.title) problems.push(`title cut at ${p.title} characters`);
      if (description.length > p.description) problems.push(`description cut at ${p.description} characters`);
      if (image.url === null) problems.push("no image");
      else if (!imageOk) problems.push(`image not shown (${image.error ?? `status ${image.status}`})`);
      else {
        if ((image.width ?? 0) < p.minWidth || (image.height ?? 0) < p.minHeight) problems.push(`image smaller than ${p.minWidth}×${p.minHeight}: not shown`);
        else if ((image.width ?? 0) < p.recWidth || (image.height ?? 0) < p.recHeight) problems.push(`image smaller than the recommended ${p.recWidth}×${p.recHeight}: shown small`);
        if ((image.bytes ?? 0) > p.maxBytes) problems.push(`image over ${Math.round(p.maxBytes / 1024)} KB`);
        if (!IMAGE_MIME.test(image.type ?? "")) problems.push(`image type ${image.type ?? "unknown"} may not be shown`);
      }
      if (p.name === "X" && !tw["twitter:card"]) problems.push("no twitter:card: X shows a small summary card");
      const shows = imageOk && !problems.some((x) => x.includes("not shown"));
      return { name: p.name, title: cut(title, p.title), description: cut(description, p.description), site, image_ok: shows, problems };
    });
    const required = ["og:title", "og:type", "og:image", "og:url"].filter((k) => !og[k]);
    if (required.length > 0) warnings.push({ code: "og_missing", text: `missing ${required.join(", ")} (fallbacks used)` });
    if (og["og:url"] && og["og:url"] !== res.url && og["og:url"] !== facts.canonicals[0]) warnings.push({ code: "og_url_mismatch", text: `og:url is ${og["og:url"]}, the page is ${res.url}` });
    const pairs: Pair[] = [
      { label: "Title", value: title || "(none)", status: title ? "good" : "bad" },
      { label: "Description", value: description || "(none)", status: description ? "good" : "warn" },
      { label: "Image", value: image.url ?? "(none)", status: imageOk ? "good" : "bad" },
      ...(image.width !== null ? [{ label: "Image size", value: `${image.width}×${image.height} px, ${image.bytes} bytes, ${image.type}` }] : []),
      { label: "twitter:card", value: tw["twitter:card"] ?? "(none)" },
    ];
    const preview = imageData && image.width && image.height ? [{ mime: image.type as string, data_base64: Buffer.from(imageData).toString("base64"), width: image.width, height: image.height, alt: title }] : [];
    return {
      result: { url: input.url, final_url: res.url, tags, title, description, image, platforms, missing: required },
      blocks: {
        pairs,
        tables: [
          { title: "Tags", columns: ["Tag", "Content"], rows: Object.entries(tags).map(([k, v]) => [k, v]) },
          { title: "Cards", columns: ["Platform", "Title", "Description", "Image shown", "Problems"], rows: platforms.map((p) => [p.name, p.title, p.description, p.image_ok, p.problems.join("; ")]) },
        ],
        images: preview.filter((p) => p.data_base64.length <= 1_500_000),
      },
      warnings,
    };
  },
});
