import { defineUtility } from "../utility.ts";

interface Input {
  user_agents: string[];
}

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ") || null;

export const userAgentParse = defineUtility<Input>({
  id: "user_agent_parse",
  group: "dev",
  title: "User-Agent parser",
  description:
    "Parses User-Agent strings, one or a log column: browser, engine, OS, device type, vendor and model, whether it is a bot and which. Pair it with bot_verify to check the IP",
  net: false,
  file: false,
  fields: [{ name: "user_agents", type: "list", label: "User-Agent strings, one per line", required: true, max: 1000 }],
  example: {
    user_agents: [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    ],
  },
  async run(i) {
    const [{ UAParser }, { isbot, isbotMatch }] = await Promise.all([import("ua-parser-js"), import("isbot")]);
    const rows = i.user_agents.map((ua) => {
      const r = UAParser(ua);
      const bot = isbot(ua);
      return {
        ua,
        browser: join(r.browser.name, r.browser.version),
        engine: join(r.engine.name, r.engine.version),
        os: join(r.os.name, r.os.version),
        device: r.device.type ?? (bot ? "bot" : "desktop"),
        vendor: r.device.vendor ?? null,
        model: r.device.model ?? null,
        bot,
        bot_name: bot ? (/([A-Za-z][\w.-]*?(?:bot|spider|crawler|slurp|fetcher)[\w-]*)/i.exec(ua)?.[1] ?? isbotMatch(ua) ?? null) : null,
      };
    });
    return {
      result: { rows },
      blocks: { tables: [{ title: "User agents", columns: ["browser", "engine", "OS", "device", "vendor", "model", "bot"], rows: rows.map((r) => [r.browser, r.engine, r.os, r.device, r.vendor, r.model, r.bot ? (r.bot_name ?? "yes") : "no"]) }] },
    };
  },
});
