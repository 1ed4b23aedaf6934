// Explanations of the structured_data display group. Pure data.
import type { Explanation } from "./types.ts";

export const STRUCTURED_DATA: Readonly<Record<string, Explanation>> = {
  jsonld_syntax: {
    hint: {
      ru: {
        what: "Разбирает блоки <script type=\"application/ld+json\"> страниц выборки, где они есть.",
        good: "Каждый блок — корректный JSON-объект (или массив объектов) с @context schema.org и @type.",
        bad: "Хотя бы один блок не разбирается как JSON, не является объектом, не ссылается на schema.org или не имеет @type.",
        glossary: ["JSON-LD — формат микроразметки в виде JSON внутри страницы", "schema.org — словарь типов микроразметки (Organization, Product…)"],
      },
      en: {
        what: "Parses the <script type=\"application/ld+json\"> blocks of the sampled pages that have them.",
        good: "Every block is a valid JSON object (or array of objects) with a schema.org @context and an @type.",
        bad: "At least one block does not parse as JSON, is not an object, lacks a schema.org @context or an @type.",
        glossary: ["JSON-LD — structured data written as JSON inside the page", "schema.org — the vocabulary of structured data types (Organization, Product…)"],
      },
    },
    plain: {
      ru: {
        name: "Микроразметка без ошибок",
        what: "Микроразметка — скрытое описание страницы для поисковиков: товар, цена, рейтинг, организация.",
        why: "Разметку с ошибками поисковики игнорируют, и расширенного сниппета со звёздами или ценой не будет.",
        benefit: "Шанс на расширенные сниппеты, заметные в выдаче.",
        effort: "час-два: исправить шаблон разметки",
        who: "разработчик, добавлявший разметку",
      },
    },
    guide: null,
  },
};
