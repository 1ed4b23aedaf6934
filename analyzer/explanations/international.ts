// Explanations of the international display group. Pure data.
import type { Explanation } from "./types.ts";

export const INTERNATIONAL: Readonly<Record<string, Explanation>> = {
  html_lang: {
    hint: {
      ru: {
        what: "Читает атрибут lang элемента <html> каждой страницы выборки и сверяет его с письменностью текста.",
        good: "lang задан, это корректный тег BCP 47 и он не противоречит письменности текста.",
        bad: "Атрибута нет, тег некорректен или, например, lang=\"en\" у текста на кириллице.",
        glossary: ["BCP 47 — стандарт тегов языка (ru, en, pt-BR)", "письменность — система письма текста: кириллица, латиница"],
      },
      en: {
        what: "Reads the lang attribute of <html> on each sampled page and compares it with the script of the text.",
        good: "lang is set, is a valid BCP 47 tag and does not contradict the text's script.",
        bad: "No attribute, an invalid tag, or for example lang=\"en\" on Cyrillic text.",
        glossary: ["BCP 47 — the standard for language tags (ru, en, pt-BR)", "script — the writing system of a text: Cyrillic, Latin"],
      },
    },
    plain: {
      ru: {
        name: "Указан язык страниц",
        what: "Страница сообщает браузеру и поисковику, на каком языке она написана.",
        why: "Иначе браузер предлагает ненужный перевод, а программы чтения вслух читают русский текст с английским акцентом.",
        benefit: "Правильный язык в поиске, переводчике и программах для незрячих.",
        effort: "минут 15: атрибут в общем шаблоне",
        who: "верстальщик общего шаблона",
      },
    },
    guide: null,
  },
  hreflang_codes: {
    hint: {
      ru: {
        what: "Проверяет hreflang-аннотации страниц выборки, где они есть: код языка и адрес каждой альтернативы.",
        good: "Каждый код — язык ISO 639-1 с необязательным регионом ISO 3166-1 или x-default, каждый адрес абсолютный.",
        bad: "Хотя бы один код неверен (например en-UK вместо en-GB) или адрес относительный.",
        glossary: ["hreflang — указание на версии страницы для других языков и регионов", "x-default — версия для всех, кому не подошёл ни один язык"],
      },
      en: {
        what: "Checks the hreflang annotations of the sampled pages that have them: the language code and the URL of each alternate.",
        good: "Every code is an ISO 639-1 language with an optional ISO 3166-1 region, or x-default, and every URL is absolute.",
        bad: "At least one code is wrong (e.g. en-UK instead of en-GB) or a URL is relative.",
        glossary: ["hreflang — points to the page's versions for other languages and regions", "x-default — the version for everyone no listed language fits"],
      },
    },
    plain: {
      ru: {
        name: "Языковые версии связаны правильно",
        what: "Многоязычный сайт подсказывает поисковику, какая версия страницы для какой страны и языка.",
        why: "С ошибкой в коде подсказка игнорируется, и немцам показывается русская версия.",
        benefit: "Каждый посетитель видит в поиске версию на своём языке.",
        effort: "час-два: исправить коды в шаблоне или плагине мультиязычности",
        who: "разработчик мультиязычной части сайта",
      },
    },
    guide: null,
  },
  hreflang_return: {
    hint: {
      ru: {
        what: "Проверяет по последнему полному обходу (не старше 30 дней), что каждая языковая версия из hreflang ссылается в ответ на страницу, которая её назвала.",
        good: "Все пары языковых версий взаимны; без hreflang на сайте проверка не применяется.",
        bad: "Хотя бы одна версия не ссылается обратно; оценка сравнивает число таких пар с числом обойдённых страниц.",
        glossary: ["обратная ссылка hreflang — ссылка hreflang со страницы-альтернативы на исходную", "альтернатива — версия той же страницы на другом языке или для другого региона"],
      },
      en: {
        what: "Checks in the latest whole-site crawl (at most 30 days old) that each language version named in hreflang links back to the page that named it.",
        good: "Every pair of language versions is mutual; a site without hreflang is not judged.",
        bad: "At least one version does not link back; the score sets the number of such pairs against the number of pages crawled.",
        glossary: ["hreflang return link — the hreflang link from an alternate back to the page that lists it", "alternate — a version of the same page in another language or for another region"],
      },
    },
    plain: {
      ru: {
        name: "Языковые версии ссылаются друг на друга",
        what: "Связь между переводами страницы работает, только если каждая версия перечисляет все остальные, включая исходную.",
        why: "Односторонние пары поисковики игнорируют и показывают людям версию не на их языке.",
        benefit: "Посетитель из каждой страны попадает из поиска на свою языковую версию.",
        effort: "от пары часов: выровнять наборы hreflang во всех языковых шаблонах",
        who: "разработчик языкового переключателя или SEO-плагина",
      },
    },
    guide: null,
  },
};
