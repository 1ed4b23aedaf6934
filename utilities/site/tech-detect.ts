import { defineUtility } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, netOf, requireHtml } from "./net-util.ts";

interface Input {
  url: string;
}

export const techDetect = defineUtility<Input>({
  id: "tech_detect",
  group: "site",
  title: "CMS & technology detector",
  description: "Finds the CMS (WordPress, 1C-Bitrix, Tilda, Shopify…), frameworks, analytics, CDN, web server and languages, with versions, from headers, cookies, HTML and script URLs",
  net: true,
  file: false,
  fields: [{ name: "url", type: "url", label: "URL", required: true }],
  example: { url: "https://example.com/" },
  async run(input, ports) {
    const net = netOf(ports);
    const { res } = await fetchFollowing(net, input.url, { headers: { "user-agent": USER_AGENTS.browser } });
    requireHtml(res, res.url);
    // The crawler's own detector (crawler/page/tech-detect.ts), the one reports use, with its signals.
    const { technologies } = net.page(res);
    const tech = technologies.map((t) => ({ name: t.name, version: t.version, categories: [...t.categories], confidence: t.evidence === "script" ? "medium" : "high", evidence: t.evidence }));
    return {
      result: { url: input.url, final_url: res.url, tech },
      blocks: {
        pairs: [{ label: "Technologies", value: String(tech.length) }],
        tables: [{ title: "Technologies", columns: ["Name", "Version", "Category", "Found in", "Confidence"], rows: tech.map((t) => [t.name, t.version, t.categories.join(", "), t.evidence, t.confidence]) }],
      },
      warnings: tech.length === 0 ? [{ code: "none", text: "no technology left a signature in the headers, cookies or HTML" }] : [],
    };
  },
});
