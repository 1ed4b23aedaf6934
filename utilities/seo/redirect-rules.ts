import { UtilityError, defineUtility, type Warning } from "../utility.ts";

type Server = "apache" | "nginx" | "iis";
type PresetName = "https" | "www" | "non_www" | "trailing_slash" | "no_trailing_slash" | "no_index_php" | "lowercase";

interface Input {
  pairs?: string[];
  server: Server;
  presets?: PresetName[];
  host?: string;
}

const reEsc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function pathOf(raw: string): string {
  if (/^https?:\/\//i.test(raw)) {
    const u = new URL(raw);
    return u.pathname + u.search;
  }
  return raw.startsWith("/") ? raw : `/${raw}`;
}

const PRESET_RULES: Record<PresetName, Record<Server, (host: string) => string>> = {
  https: {
    apache: () => "RewriteCond %{HTTPS} off\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]",
    nginx: () => "if ($scheme = http) { return 301 https://$host$request_uri; }",
    iis: () => '<rule name="https" stopProcessing="true"><match url="(.*)"/><conditions><add input="{HTTPS}" pattern="off"/></conditions><action type="Redirect" url="https://{HTTP_HOST}/{R:1}" redirectType="Permanent"/></rule>',
  },
  www: {
    apache: (h) => `RewriteCond %{HTTP_HOST} ^${reEsc(h)}$ [NC]\nRewriteRule ^(.*)$ https://www.${h}/$1 [R=301,L]`,
    nginx: (h) => `if ($host = ${h}) { return 301 https://www.${h}$request_uri; }`,
    iis: (h) => `<rule name="www" stopProcessing="true"><match url="(.*)"/><conditions><add input="{HTTP_HOST}" pattern="^${reEsc(h)}$"/></conditions><action type="Redirect" url="https://www.${h}/{R:1}" redirectType="Permanent"/></rule>`,
  },
  non_www: {
    apache: (h) => `RewriteCond %{HTTP_HOST} ^www\\.${reEsc(h)}$ [NC]\nRewriteRule ^(.*)$ https://${h}/$1 [R=301,L]`,
    nginx: (h) => `if ($host = www.${h}) { return 301 https://${h}$request_uri; }`,
    iis: (h) => `<rule name="non-www" stopProcessing="true"><match url="(.*)"/><conditions><add input="{HTTP_HOST}" pattern="^www\\.${reEsc(h)}$"/></conditions><action type="Redirect" url="https://${h}/{R:1}" redirectType="Permanent"/></rule>`,
  },
  trailing_slash: {
    apache: () => "RewriteCond %{REQUEST_FILENAME} !-f\nRewriteCond %{REQUEST_URI} !/$\nRewriteRule ^(.*)$ /$1/ [R=301,L]",
    nginx: () => "rewrite ^([^.?]*[^/])$ $1/ permanent;",
    iis: () => '<rule name="slash" stopProcessing="true"><match url="(.*[^/])$"/><conditions><add input="{REQUEST_FILENAME}" matchType="IsFile" negate="true"/></conditions><action type="Redirect" url="{R:1}/" redirectType="Permanent"/></rule>',
  },
  no_trailing_slash: {
    apache: () => "RewriteCond %{REQUEST_FILENAME} !-d\nRewriteRule ^(.+)/$ /$1 [R=301,L]",
    nginx: () => "rewrite ^/(.+)/$ /$1 permanent;",
    iis: () => '<rule name="no-slash" stopProcessing="true"><match url="(.+)/$"/><action type="Redirect" url="{R:1}" redirectType="Permanent"/></rule>',
  },
  no_index_php: {
    apache: () => "RewriteCond %{THE_REQUEST} ^[A-Z]+\\s/(.*)index\\.(php|html?)[\\s?]\nRewriteRule ^(.*)index\\.(php|html?)$ /$1 [R=301,L]",
    nginx: () => "if ($request_uri ~* \"^(.*/)index\\.(php|html?)$\") { return 301 $1; }",
    iis: () => '<rule name="index" stopProcessing="true"><match url="(.*)index\\.(php|html?)$"/><action type="Redirect" url="{R:1}" redirectType="Permanent"/></rule>',
  },
  lowercase: {
    apache: () => "# needs in the server config: RewriteMap lc int:tolower\nRewriteCond %{REQUEST_URI} [A-Z]\nRewriteRule ^(.*)$ ${lc:$1} [R=301,L]",
    nginx: () => "# needs the perl module: perl_set $uri_lc 'sub { return lc shift->uri; }';\nif ($uri ~ [A-Z]) { return 301 $uri_lc$is_args$args; }",
    iis: () => '<rule name="lowercase" stopProcessing="true"><match url="[A-Z]" ignoreCase="false"/><action type="Redirect" url="{ToLower:{URL}}" redirectType="Permanent"/></rule>',
  },
};

function pairRule(server: Server, from: string, to: string): string {
  const [path, query] = from.split("?") as [string, string | undefined];
  switch (server) {
    case "apache":
      return query
        ? `RewriteCond %{QUERY_STRING} ^${reEsc(query)}$\nRewriteRule ^${reEsc(path.slice(1))}$ ${to}? [R=301,L]`
        : `RewriteRule ^${reEsc(path.slice(1))}$ ${to} [R=301,L]`;
    case "nginx":
      return query ? `if ($request_uri = "${from}") { return 301 ${to}; }` : `location = ${path} { return 301 ${to}; }`;
    case "iis":
      return `<rule name="${from.replace(/"/g, "")}" stopProcessing="true"><match url="^${reEsc(path.slice(1))}$"/>${query ? `<conditions><add input="{QUERY_STRING}" pattern="^${reEsc(query)}$"/></conditions>` : ""}<action type="Redirect" url="${to}" appendQueryString="false" redirectType="Permanent"/></rule>`;
  }
}

export const redirectRules = defineUtility<Input>({
  id: "redirect_rules",
  group: "seo",
  title: "Redirect rules generator",
  description:
    "Generates 301 rules for Apache .htaccess, nginx or IIS from old → new pairs and presets (http→https, www↔non-www, trailing slash, index.php, lower case). Escapes regex and finds chains, loops and duplicates in the list",
  net: false,
  file: false,
  fields: [
    { name: "pairs", type: "list", label: '"old new" per line', max: 5000 },
    { name: "server", type: "sel", label: "Server", required: true, options: ["apache", "nginx", "iis"], default: "apache" },
    { name: "presets", type: "multi", label: "Presets", options: Object.keys(PRESET_RULES) },
    { name: "host", type: "host", label: "Host (for www presets)" },
  ],
  example: { pairs: ["/old-page.html /new-page/", "/catalog.php?id=5 /catalog/divany/", "/a /b", "/b /c"], server: "apache", presets: ["https"] },
  run(i) {
    const issues: Warning[] = [];
    const map = new Map<string, string>();
    for (const line of i.pairs ?? []) {
      const parts = line.trim().split(/\s+/);
      if (parts.length !== 2) throw new UtilityError("bad_param", `input.pairs has "${line}"; each line is "old new"`, "input.pairs");
      const from = pathOf(parts[0] as string);
      const to = parts[1] as string;
      if (map.has(from)) issues.push({ code: "duplicate", text: `${from} is redirected twice; the first target is kept` });
      else if (pathOf(to) === from) issues.push({ code: "self", text: `${from} redirects to itself` });
      else map.set(from, to);
    }
    for (const [from, to] of map) {
      const seen = new Set([from]);
      let next = pathOf(to);
      let hops = 1;
      while (map.has(next)) {
        if (seen.has(next)) {
          issues.push({ code: "loop", text: `${from} ends in a loop through ${next}` });
          break;
        }
        seen.add(next);
        next = pathOf(map.get(next) as string);
        hops++;
      }
      if (hops > 1 && !issues.some((x) => x.code === "loop" && x.text.startsWith(from))) issues.push({ code: "chain", text: `${from} takes ${hops} hops; point it straight at ${next}` });
    }
    const presets = i.presets ?? [];
    if ((presets.includes("www") || presets.includes("non_www")) && !i.host) throw new UtilityError("bad_param", "input.host is required by the www presets", "input.host");
    if (presets.includes("www") && presets.includes("non_www")) throw new UtilityError("bad_param", "input.presets: www and non_www contradict each other", "input.presets");
    const host = (i.host ?? "").replace(/^www\./, "");
    const rules = [...presets.map((p) => PRESET_RULES[p][i.server](host)), ...[...map].map(([from, to]) => pairRule(i.server, from, to))];
    const config =
      i.server === "apache"
        ? `RewriteEngine On\n\n${rules.join("\n\n")}\n`
        : i.server === "nginx"
          ? `# inside the server { } block\n${rules.join("\n")}\n`
          : `<rewrite>\n  <rules>\n${rules.map((r) => `    ${r}`).join("\n")}\n  </rules>\n</rewrite>\n`;
    return { result: { config, issues }, blocks: { code: [{ lang: i.server === "iis" ? "xml" : "text", text: config, filename: i.server === "apache" ? ".htaccess" : i.server === "nginx" ? "redirects.conf" : "web.config" }] }, warnings: issues };
  },
});
