import { UtilityError, type FieldSpec } from "../utility.ts";

// The shared user-agent selector of the site utilities (utilities-catalogue.md §3): one table, so
// version numbers are updated here only.

export const USER_AGENTS = {
  browser: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  mobile: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  googlebot_mobile:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  yandexbot: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  gptbot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  claudebot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
} as const;

export type UaName = keyof typeof USER_AGENTS | "custom";

export const UA_OPTIONS: readonly UaName[] = [...(Object.keys(USER_AGENTS) as (keyof typeof USER_AGENTS)[]), "custom"];

/** The `ua` and `ua_custom` fields of a site utility. */
export function uaFields(defaultUa: UaName): FieldSpec[] {
  return [
    { name: "ua", type: "sel", label: "User-Agent", options: UA_OPTIONS, default: defaultUa },
    { name: "ua_custom", type: "str", label: "Custom User-Agent (ua: custom)", max: 512 },
  ];
}

/** The User-Agent string a run sends. */
export function userAgentOf(input: { ua: UaName; ua_custom?: string }): string {
  if (input.ua !== "custom") return USER_AGENTS[input.ua];
  if (!input.ua_custom) throw new UtilityError("bad_param", "ua_custom is required when ua is custom", "input.ua_custom");
  return input.ua_custom;
}
