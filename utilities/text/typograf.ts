import { defineUtility } from "../utility.ts";

interface Input {
  text: string;
  locale: "ru" | "en-US";
  entities: "chars" | "named" | "digits";
}

const ENTITY_TYPE = { chars: "default", named: "name", digits: "digit" } as const;

export const typograf = defineUtility<Input>({
  id: "typograf",
  group: "text",
  title: "Typographer",
  description:
    "Russian and English typography: «ёлочки» and “quotes”, em dashes, non-breaking spaces after short words and before units, ellipses, ©/™, number ranges. Output as characters, named or numeric entities",
  net: false,
  file: false,
  fields: [
    { name: "text", type: "text", label: "Text or HTML", required: true },
    { name: "locale", type: "sel", label: "Rules of", options: ["ru", "en-US"], default: "ru" },
    { name: "entities", type: "sel", label: "Special characters as", options: ["chars", "named", "digits"], default: "chars" },
  ],
  example: { text: '"Привет" - сказал он... В 1990-2000 гг. (c) ООО "Ромашка"', locale: "ru", entities: "chars" },
  async run(i) {
    // Loaded on first use (the catalogue loads without it). A CommonJS package whose types declare
    // a default export: at run time the class is module.exports.
    const TypografModule = (await import("typograf")).default;
    const Typograf = ((TypografModule as unknown as { default?: unknown }).default ?? TypografModule) as typeof TypografModule.default;
    const { diffChars } = await import("diff");
    const tp = new Typograf({ locale: i.locale === "ru" ? ["ru", "en-US"] : ["en-US"], htmlEntity: { type: ENTITY_TYPE[i.entities] } });
    const text = tp.execute(i.text);
    const changes = diffChars(i.text, text).filter((p) => p.added).length;
    return {
      result: { text, changes },
      blocks: { code: [{ lang: "text", text }], comparison: [{ before: i.text, after: text, mode: "diff" }], pairs: [{ label: "Changes", value: String(changes) }] },
    };
  },
});
