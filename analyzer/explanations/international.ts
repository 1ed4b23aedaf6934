// Explanations of the international display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const INTERNATIONAL: Readonly<Record<string, ExplanationText>> = {
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
  },
  hreflang_self: {
    hint: {
      ru: {
        what: "На страницах с hreflang ищет альтернативу с кодом языка (не x-default), которая ведёт на саму страницу.",
        good: "Страница указывает себя среди языковых версий; страницы без hreflang не оцениваются.",
        bad: "Себя в списке нет (x-default на себя не в счёт): Google может не принять весь набор. Оценка по доле таких страниц.",
        glossary: ["самоссылка hreflang — строка hreflang страницы, указывающая на неё саму", "языковая версия — та же страница на другом языке или для другой страны"],
      },
      en: {
        what: "On pages with hreflang, looks for an alternate with a language code (not x-default) that points to the page itself.",
        good: "The page lists itself among its language versions; pages without hreflang are not judged.",
        bad: "It does not (x-default pointing here does not count): Google may reject the whole set. Scored by the share of such pages.",
        glossary: ["hreflang self-reference — the page's hreflang line that points to the page itself", "language version — the same page in another language or for another country"],
      },
    },
    plain: {
      ru: {
        name: "Языковые версии называют и себя",
        what: "Каждая языковая версия страницы должна перечислять все версии, включая саму себя.",
        why: "Без себя в списке поисковик может не поверить связям между версиями и показать не тот язык.",
        benefit: "Посетители из разных стран попадают на свою версию.",
        effort: "час: поправить шаблон вывода hreflang",
        who: "разработчик многоязычной части сайта",
      },
    },
  },
  hreflang_x_default: {
    hint: {
      ru: {
        what: "На страницах с hreflang ищет альтернативу hreflang=\"x-default\".",
        good: "В наборе есть x-default; страницы без hreflang не оцениваются.",
        bad: "x-default нет: посетителю, чей язык не подходит ни одной версии, поисковик покажет какую-нибудь. Оценка по доле таких страниц.",
        glossary: ["запасная версия — страница для всех, чей язык в наборе не указан", "выбор языка — страница, где посетитель сам выбирает язык"],
      },
      en: {
        what: "On pages with hreflang, looks for an hreflang=\"x-default\" alternate.",
        good: "The set names an x-default; pages without hreflang are not judged.",
        bad: "No x-default: a visitor whose language no version fits gets whichever the search engine picks. Scored by the share of such pages.",
        glossary: ["fallback version — the page for everyone whose language the set does not list", "language chooser — a page where visitors pick their language themselves"],
      },
    },
    plain: {
      ru: {
        name: "Есть версия по умолчанию",
        what: "Для посетителей с другими языками можно назначить страницу по умолчанию — например, английскую или выбор языка.",
        why: "Без неё поисковик сам решает, какую версию показать, и может выбрать неподходящую.",
        benefit: "Посетители из любых стран видят понятную им страницу.",
        effort: "полчаса: добавить одну строку в шаблон",
        who: "разработчик, настраивавший языковые версии",
      },
    },
  },
  hreflang_lang_mismatch: {
    hint: {
      ru: {
        what: "У страниц с hreflang сравнивает код языка строки, ведущей на саму страницу, с <html lang> и ищет адреса, перечисленные под несколькими языками.",
        good: "Основной язык самоссылки (часть до дефиса: en у en-GB) совпадает с lang, и каждый адрес стоит под одним языком; x-default может делить адрес с любым.",
        bad: "Страница называет себя не тем языком, что объявлен в lang, или один адрес указан, например, и как en, и как de. Оценка по доле таких страниц.",
        glossary: ["основной язык — первая часть кода языка: ru в ru-RU", "атрибут lang — язык страницы, объявленный в теге <html>"],
      },
      en: {
        what: "On pages with hreflang, compares the language code of the line pointing to the page itself with <html lang>, and looks for URLs listed under several languages.",
        good: "The self-reference's primary language (the part before the hyphen: en in en-GB) matches lang, and every URL stands under one language; x-default may share a URL with any.",
        bad: "The page names itself in another language than its lang declares, or one URL is listed as, say, both en and de. Scored by the share of such pages.",
        glossary: ["primary language — the first part of a language code: ru in ru-RU", "lang attribute — the page language declared on the <html> tag"],
      },
    },
    plain: {
      ru: {
        name: "Языковые пометки не противоречат",
        what: "Язык страницы указан в двух местах: в её коде и в списке языковых версий.",
        why: "Когда они расходятся, поисковик не знает, в какой стране и на каком языке показывать страницу.",
        benefit: "Каждая версия показывается своей аудитории.",
        effort: "полчаса: согласовать коды языков в шаблоне",
        who: "разработчик шаблона языковых версий",
      },
    },
  },
};
