import TypografModule from "typograf";
import { diffChars } from "diff";
import { defineUtility } from "../utility.ts";

interface Input {
  text: string;
  locale: "ru" | "en-US";
  entities: "chars" | "named" | "digits";
}

// A CommonJS package whose types declare a default export: at run time the class is module.exports.
const Typograf = ((TypografModule as unknown as { default?: unknown }).default ?? TypografModule) as typeof TypografModule.default;

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
  run(i) {
    const tp = new Typograf({ locale: i.locale === "ru" ? ["ru", "en-US"] : ["en-US"], htmlEntity: { type: ENTITY_TYPE[i.entities] } });
    const text = tp.execute(i.text);
    const changes = diffChars(i.text, text).filter((p) => p.added).length;
    return {
      result: { text, changes },
      blocks: { code: [{ lang: "text", text }], comparison: [{ before: i.text, after: text, mode: "diff" }], pairs: [{ label: "Changes", value: String(changes) }] },
    };
  },
});
