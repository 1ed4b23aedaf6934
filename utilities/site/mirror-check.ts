import { domainToASCII } from "node:url";
import { UtilityError, defineUtility, type Pair } from "../utility.ts";
import { USER_AGENTS } from "../shared/user-agents.ts";
import { fetchFollowing, netOf, type Hop } from "./net-util.ts";

interface Input {
  host: string;
  extra_paths?: string[];
}

interface Variant {
  url: string;
  status: number | null;
  /** The status of the first answer when it was a redirect (301, 302…). */
  redirect: number | null;
  final_url: string | null;
  canonical: string | null;
  verdict: "main" | "redirect" | "temporary_redirect" | "canonical" | "duplicate" | "elsewhere" | "error" | "unreachable";
  error: string | null;
}

/** "host" or "host:port" (a non-standard port is kept for every variant: test and staging servers). */
function parseHost(raw: string): { name: string; port: string } {
  const m = /^([^:/\s]+)(?::(\d{1,5}))?$/.exec(raw.trim().replace(/\.$/, "").toLowerCase());
  const name = m ? domainToASCII(m[1] as string) : "";
  if (!m || name === "" || (!name.includes(".") && name !== "localhost")) throw new UtilityError("bad_param", `"${raw.slice(0, 100)}" is not a host name (no scheme or path)`, "input.host");
  const port = m[2] ?? "";
  if (port !== "" && (Number(port) < 1 || Number(port) > 65_535)) throw new UtilityError("bad_param", `port ${port} is out of range`, "input.host");
  return { name, port };
}

export const mirrorCheck = defineUtility<Input>({
  id: "mirror_check",
  group: "site",
  title: "Main mirror & home-page duplicates",
  description:
    "Requests http/https × www/non-www plus /index.html, /index.php, //, and upper-case variants, and shows where each one lands. Says whether all of them end at one address (301 or canonical)",
  net: true,
  file: false,
  fields: [
    { name: "host", type: "str", label: "Host", required: true, max: 260 },
    { name: "extra_paths", type: "list", label: "More paths to try (/home, /main…)", max: 10 },
  ],
  example: { host: "example.com" },
  async run(input, ports) {
    const net = netOf(ports);
    const { name, port } = parseHost(input.host);
    const bare = name.startsWith("www.") ? name.slice(4) : name;
    const hostPart = (h: string) => (port ? `${h}:${port}` : h);
    const bases = ["https", "http"].flatMap((scheme) => [bare, `www.${bare}`].map((h) => `${scheme}://${hostPart(h)}`));
    const paths = ["/index.html", "/index.php", "//", "/INDEX.HTML", ...(input.extra_paths ?? []).map((p) => (p.startsWith("/") ? p : `/${p}`))];
    const ua = { "user-agent": USER_AGENTS.googlebot };
    const visit = async (url: string): Promise<Variant> => {
      try {
        const { res, hops } = await fetchFollowing(net, url, { headers: ua, maxBytes: 1024 * 1024 }, 10);
        const canonical = res.status === 200 ? (net.page(res).facts.canonicals[0] ?? null) : null;
        return { url, status: res.status, redirect: redirectOf(hops), final_url: res.url, canonical, verdict: "duplicate", error: null };
      } catch (err) {
        if (!(err instanceof UtilityError)) throw err;
        return { url, status: null, redirect: null, final_url: null, canonical: null, verdict: "unreachable", error: err.message };
      }
    };
    const home = await Promise.all(bases.map((b) => visit(`${b}/`)));
    // The main mirror: where most reachable variants land (their canonical when they name one), https preferred on a tie.
    const votes = new Map<string, number>();
    for (const v of home) if (v.status === 200) votes.set(landing(v), (votes.get(landing(v)) ?? 0) + 1);
    const main = [...votes.entries()].sort((a, b) => b[1] - a[1] || Number(b[0].startsWith("https:")) - Number(a[0].startsWith("https:")))[0]?.[0] ?? null;
    if (main === null) throw new UtilityError("tool_failed", `no variant of ${input.host} answered 200: ${home.map((v) => `${v.url} ${v.status ?? v.error}`).join("; ")}`);
    const mainOrigin = new URL(main).origin;
    const more = await Promise.all(paths.map((p) => visit(`${mainOrigin}${p}`)));
    const variants = [...home, ...more].map((v) => ({ ...v, verdict: verdictOf(v, main) }));
    const consolidated = variants.every((v) => v.verdict === "main" || v.verdict === "redirect" || v.verdict === "canonical" || v.verdict === "unreachable" || (v.verdict === "error" && v.status === 404));
    const level = (v: Variant): Pair["status"] =>
      v.verdict === "main" || v.verdict === "redirect" || v.verdict === "canonical" ? "good" : v.verdict === "unreachable" || v.verdict === "error" ? "info" : "bad";
    return {
      result: { host: input.host, main, consolidated, variants },
      blocks: {
        pairs: [
          { label: "Main mirror", value: main, status: "info" },
          { label: "Consolidated", value: consolidated ? "every variant ends at the main mirror (or is absent)" : "some variants serve the page under their own address", status: consolidated ? "good" : "bad" },
          ...variants.filter((v) => level(v) === "bad").map((v) => ({ label: v.url, value: v.verdict.replace("_", " "), status: "bad" as const })),
        ],
        tables: [{ title: "Variants", columns: ["URL", "Status", "Lands at", "Canonical", "Verdict"], rows: variants.map((v) => [v.url, v.redirect ?? v.status ?? v.error, v.final_url, v.canonical, v.verdict]) }],
      },
    };
  },
});

function redirectOf(hops: readonly Hop[]): number | null {
  return hops[0]?.status ?? null;
}

/** Where a variant really lands: its canonical when it names one, else its final URL. */
function landing(v: Variant): string {
  return v.canonical ?? (v.final_url as string);
}

function verdictOf(v: Variant, main: string): Variant["verdict"] {
  if (v.status === null) return "unreachable";
  if (v.status !== 200) return "error";
  const lands = v.final_url === main;
  if (lands && v.redirect === null) return v.url === main ? "main" : v.canonical === main || v.canonical === null ? "main" : "elsewhere";
  if (lands) return v.redirect === 301 || v.redirect === 308 ? "redirect" : "temporary_redirect";
  if (v.canonical === main) return "canonical";
  return v.final_url !== null && new URL(v.final_url).host === new URL(main).host ? "duplicate" : "elsewhere";
}
