// Explanations of the indexing display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const INDEXING: Readonly<Record<string, ExplanationText>> = {
  robots_txt_fetch: {
    hint: {
      ru: {
        what: "Запрашивает /robots.txt и смотрит на HTTP-статус ответа.",
        good: "Ответ 2xx; ответ 4xx (файла нет) тоже не ошибка: правил нет, сканировать можно всё.",
        bad: "Ответ 5xx, 429, иной статус или отсутствие ответа: поисковики считают такой сайт закрытым целиком и перестают его обходить.",
        glossary: ["robots.txt — файл в корне сайта с правилами для поисковых роботов", "5xx — коды ошибок сервера (500, 502, 503…)"],
      },
      en: {
        what: "Requests /robots.txt and looks at the HTTP status of the answer.",
        good: "A 2xx answer; a 4xx (no file) is fine too: no rules, everything may be crawled.",
        bad: "A 5xx, 429, another status or no answer at all: search engines then treat the whole site as disallowed and stop crawling it.",
        glossary: ["robots.txt — the file at the site root with rules for search engine crawlers", "5xx — server error status codes (500, 502, 503…)"],
      },
    },
    plain: {
      ru: {
        name: "Файл robots.txt доступен",
        what: "Поисковый робот перед обходом сайта всегда читает служебный файл robots.txt.",
        why: "Если вместо файла сервер отвечает ошибкой, робот на всякий случай не заходит на сайт вообще.",
        benefit: "Поисковики продолжают обходить и обновлять страницы сайта в выдаче.",
        effort: "минут 15: настроить отдачу статичного файла на сервере",
        who: "администратор сервера или хостинг-провайдер",
      },
    },
  },
  robots_blocks_all: {
    hint: {
      ru: {
        what: "Читает группы правил robots.txt для User-agent *, Googlebot и Yandex и ищет запрет всего сайта.",
        good: "Ни в одной из этих групп нет Disallow: / (или /*) без встречного Allow: /.",
        bad: "Хотя бы одна группа содержит Disallow: / без Allow: / — сайт закрыт для поиска; при таком запрете рейтинг ограничен 29.",
        glossary: ["Disallow — директива robots.txt, запрещающая обход пути", "User-agent — строка robots.txt, называющая робота, к которому относится группа"],
      },
      en: {
        what: "Reads the robots.txt groups for User-agent *, Googlebot and Yandex and looks for a rule that blocks the whole site.",
        good: "None of these groups has Disallow: / (or /*) without a matching Allow: /.",
        bad: "At least one group has Disallow: / without Allow: / — the site is closed to search; the rank is capped at 29.",
        glossary: ["Disallow — a robots.txt directive forbidding crawling of a path", "User-agent — the robots.txt line naming the crawler a group applies to"],
      },
    },
    plain: {
      ru: {
        name: "Сайт не закрыт от поисковиков",
        what: "Одна строка в robots.txt может запретить Google и Яндексу смотреть весь сайт.",
        why: "Такой запрет часто остаётся после разработки, и сайт исчезает из поиска целиком.",
        benefit: "Страницы сайта снова могут попасть в поиск и приводить посетителей.",
        effort: "минут 5: удалить одну строку из robots.txt",
        who: "разработчик или SEO-специалист",
      },
    },
  },
  sitemap_present: {
    hint: {
      ru: {
        what: "Ищет XML-карту сайта: адреса из строк Sitemap: в robots.txt, /sitemap.xml и /sitemap_index.xml.",
        good: "Хотя бы одна карта отвечает 200 и является XML (или gzip-архивом с XML).",
        bad: "Ни одна из найденных или стандартных карт не отвечает 200 с XML — карты нет.",
        glossary: ["sitemap — XML-файл со списком адресов страниц для поисковиков", "Sitemap: — строка в robots.txt, указывающая адрес карты сайта"],
      },
      en: {
        what: "Looks for an XML sitemap: the Sitemap: lines of robots.txt, /sitemap.xml and /sitemap_index.xml.",
        good: "At least one sitemap answers 200 with XML (or a gzipped XML file).",
        bad: "None of the declared or standard sitemap addresses answers 200 with XML — there is no sitemap.",
        glossary: ["sitemap — an XML file listing page addresses for search engines", "Sitemap: — the robots.txt line giving a sitemap's address"],
      },
    },
    plain: {
      ru: {
        name: "Есть карта сайта",
        what: "Карта сайта — список всех страниц, который сайт сам отдаёт поисковикам.",
        why: "Без неё новые и глубоко вложенные страницы поисковики находят медленнее или не находят вовсе.",
        benefit: "Новые страницы быстрее появляются в поиске.",
        effort: "около часа: включить генерацию карты в CMS или плагине",
        who: "разработчик сайта или владелец CMS",
      },
    },
  },
  sitemap_valid: {
    hint: {
      ru: {
        what: "Проверяет каждую полученную карту сайта: XML, пространство имён sitemaps.org 0.9, число адресов и даты.",
        good: "Каждая карта — корректный urlset или sitemapindex, не больше 50 000 абсолютных адресов своего хоста, даты lastmod не в будущем.",
        bad: "Хотя бы одна карта не разбирается как XML, не в том пространстве имён, содержит больше 50 000 адресов, чужие или относительные адреса.",
        glossary: ["urlset — корневой элемент карты со списком страниц", "sitemapindex — карта, перечисляющая другие карты", "lastmod — дата последнего изменения страницы в карте"],
      },
      en: {
        what: "Validates every fetched sitemap: XML syntax, the sitemaps.org 0.9 namespace, the URL count and the dates.",
        good: "Each sitemap is a well-formed urlset or sitemapindex with at most 50,000 absolute same-host URLs and no lastmod in the future.",
        bad: "At least one sitemap does not parse, has the wrong namespace, lists over 50,000 URLs, or lists relative or foreign URLs.",
        glossary: ["urlset — the root element of a sitemap listing pages", "sitemapindex — a sitemap that lists other sitemaps", "lastmod — a page's last modification date in a sitemap"],
      },
    },
    plain: {
      ru: {
        name: "Карта сайта без ошибок",
        what: "Поисковики читают карту сайта по строгим правилам формата.",
        why: "Карту с ошибками поисковик может отбросить целиком, и она перестаёт помогать.",
        benefit: "Поисковики берут из карты все страницы и видят, какие из них обновились.",
        effort: "от получаса до пары часов: поправить генератор карты",
        who: "разработчик, отвечающий за генерацию карты",
      },
    },
  },
  home_status: {
    hint: {
      ru: {
        what: "Запрашивает главную страницу (с переходами по редиректам) и смотрит на итоговый статус.",
        good: "Главная в итоге отвечает 200.",
        bad: "Нет ответа или 5xx — рейтинг ограничен 10; 4xx — рейтинг ограничен 20; любой другой итоговый статус, кроме 200, — тоже провал.",
        glossary: ["статус 200 — ответ сервера «страница найдена и отдана»", "4xx — коды ошибок запроса (403, 404…)"],
      },
      en: {
        what: "Requests the home page (following redirects) and looks at the final status.",
        good: "The home page ends with a 200 answer.",
        bad: "No answer or 5xx — the rank is capped at 10; 4xx — capped at 20; any other final status than 200 fails as well.",
        glossary: ["status 200 — the server's \"found and served\" answer", "4xx — client error status codes (403, 404…)"],
      },
    },
    plain: {
      ru: {
        name: "Главная страница открывается",
        what: "Проверяем, открывается ли главная страница сайта без ошибок.",
        why: "Если главная не открывается, посетители и поисковики считают сайт неработающим.",
        benefit: "Сайт снова доступен людям и поисковым роботам.",
        effort: "от минут до часов: разобраться с сервером, файрволом или защитой от ботов",
        who: "администратор сервера или хостинг",
      },
    },
  },
  noindex: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки запрет индексации: noindex или none в meta robots и в заголовке X-Robots-Tag.",
        good: "Ни одна проверенная страница не закрыта от индексации.",
        bad: "Хотя бы одна страница закрыта noindex/none; если закрыта главная, рейтинг ограничен 29.",
        glossary: ["noindex — указание поисковику не показывать страницу в выдаче", "X-Robots-Tag — HTTP-заголовок с теми же указаниями, что meta robots"],
      },
      en: {
        what: "Looks for indexing bans on the sampled pages: noindex or none in the robots meta tag and the X-Robots-Tag header.",
        good: "No checked page is closed to indexing.",
        bad: "At least one page carries noindex/none; when the home page does, the rank is capped at 29.",
        glossary: ["noindex — tells search engines not to show the page in results", "X-Robots-Tag — an HTTP header carrying the same directives as the robots meta tag"],
      },
    },
    plain: {
      ru: {
        name: "Страницы не закрыты от индексации",
        what: "Специальная метка на странице может попросить поисковики не показывать её.",
        why: "Метку часто забывают снять после запуска сайта, и нужные страницы пропадают из поиска.",
        benefit: "Закрытые по ошибке страницы возвращаются в выдачу.",
        effort: "минут 15: убрать метку в шаблоне или настройке CMS",
        who: "разработчик или SEO-специалист, работающий с шаблонами",
      },
    },
  },
  canonical_present: {
    hint: {
      ru: {
        what: "Проверяет, объявляет ли каждая страница выборки канонический адрес — в link rel=canonical или в заголовке Link.",
        good: "У каждой страницы есть канонический адрес.",
        bad: "Хотя бы у одной страницы нет ни тега link rel=canonical, ни заголовка с каноническим адресом.",
        glossary: ["канонический адрес — адрес, который страница называет основным среди своих копий", "rel=canonical — тег в <head>, объявляющий канонический адрес"],
      },
      en: {
        what: "Checks whether each sampled page declares a canonical URL, by link rel=canonical or by the Link header.",
        good: "Every page declares a canonical URL.",
        bad: "At least one page has neither a link rel=canonical tag nor a canonical Link header.",
        glossary: ["canonical URL — the address a page names as the main one among its copies", "rel=canonical — the <head> tag declaring the canonical URL"],
      },
    },
    plain: {
      ru: {
        name: "Указан основной адрес страниц",
        what: "Одна и та же страница часто открывается по нескольким адресам (с метками, параметрами).",
        why: "Без указания основного адреса поисковик сам выбирает, какую копию показывать, и делит между ними вес.",
        benefit: "В поиске показывается нужный адрес, ссылочный вес не распыляется.",
        effort: "около часа: добавить тег в общий шаблон страниц",
        who: "разработчик шаблонов сайта",
      },
    },
  },
  canonical_valid: {
    hint: {
      ru: {
        what: "Проверяет объявленные канонические адреса страниц выборки (страницы без них пропускаются).",
        good: "Один абсолютный http(s)-адрес, одинаковый в HTML и заголовке; он не ведёт с внутренней страницы на корень сайта и не указывает на hreflang-альтернативу.",
        bad: "Адрес относительный или не http(s), объявлено несколько разных, внутренняя страница ссылается на корень сайта или на свою языковую версию.",
        glossary: ["абсолютный адрес — адрес со схемой и хостом (https://example.com/a)", "hreflang-альтернатива — версия страницы на другом языке"],
      },
      en: {
        what: "Checks the canonical URLs the sampled pages declare (pages without one are skipped).",
        good: "One absolute http(s) URL, the same in HTML and the header, not pointing from an inner page to the site root nor to an hreflang alternate.",
        bad: "The URL is relative or not http(s), several different ones are declared, or an inner page points to the site root or to its other-language version.",
        glossary: ["absolute URL — an address with scheme and host (https://example.com/a)", "hreflang alternate — the page's version in another language"],
      },
    },
    plain: {
      ru: {
        name: "Основные адреса указаны верно",
        what: "Основной адрес страницы должен вести на неё саму или на её точную копию.",
        why: "Ошибочный основной адрес говорит поисковику «покажи вместо меня другую страницу», и нужная выпадает из поиска.",
        benefit: "Каждая страница остаётся в поиске под своим адресом.",
        effort: "час-два: найти и исправить ошибку в шаблоне или плагине",
        who: "разработчик, настраивающий SEO-плагин или шаблоны",
      },
    },
  },
  not_found_status: {
    hint: {
      ru: {
        what: "Запрашивает заведомо несуществующий случайный адрес сайта и смотрит на статус ответа.",
        good: "Случайный адрес отвечает 404 или 410.",
        bad: "Любой другой статус — например 200 или редирект на главную (мягкая 404).",
        glossary: ["404 — статус «страница не найдена»", "мягкая 404 — страница-заглушка, отданная со статусом 200 вместо 404"],
      },
      en: {
        what: "Requests a random URL that cannot exist on the site and looks at the status of the answer.",
        good: "The random URL answers 404 or 410.",
        bad: "Any other status — for example 200 or a redirect to the home page (a soft 404).",
        glossary: ["404 — the \"not found\" status", "soft 404 — a not-found page served with status 200 instead of 404"],
      },
    },
    plain: {
      ru: {
        name: "Несуществующие страницы отвечают «не найдено»",
        what: "Когда посетитель открывает адрес, которого нет, сервер должен честно ответить «не найдено».",
        why: "Иначе поисковик принимает мусорные адреса за настоящие страницы и тратит на них время обхода.",
        benefit: "Поисковики обходят только настоящие страницы, в выдаче нет пустых дублей.",
        effort: "полчаса-час: настройка страницы ошибки в CMS или на сервере",
        who: "разработчик или администратор веб-сервера",
      },
    },
  },
  host_canonical: {
    hint: {
      ru: {
        what: "Запрашивает второе имя сайта (с www или без) и смотрит, куда и как оно перенаправляет.",
        good: "Второе имя отвечает и первым же шагом перенаправляет 301 или 308 на основное имя сайта.",
        bad: "Второе имя не отвечает, отдаёт сайт само (два хоста), перенаправляет не 301/308 или не на основной адрес.",
        glossary: ["www-вариант — то же имя сайта с префиксом www или без него", "301/308 — постоянные редиректы"],
      },
      en: {
        what: "Requests the site's other name (with or without www) and looks at where and how it redirects.",
        good: "The other name answers and its first hop is a 301 or 308 to the site's main origin.",
        bad: "The other name does not answer, serves the site itself (two hosts), redirects with another status or to another address.",
        glossary: ["www twin — the same site name with or without the www prefix", "301/308 — permanent redirects"],
      },
    },
    plain: {
      ru: {
        name: "Одно основное имя сайта",
        what: "Сайт обычно открывается и как example.ru, и как www.example.ru.",
        why: "Если оба варианта живут отдельно, поисковик видит два сайта-дубля, а не открывающийся вариант теряет посетителей.",
        benefit: "Весь поисковый вес и все посетители собираются на одном адресе.",
        effort: "минут 15: одно правило редиректа в настройках сервера",
        who: "администратор сервера или DNS",
      },
    },
  },
  robots_txt_syntax: {
    hint: {
      ru: {
        what: "Разбирает полученный robots.txt по RFC 9309 с расширениями Яндекса и смотрит на его размер.",
        good: "Парсер не нашёл ни одной ошибочной строки, файл не больше 500 КиБ.",
        bad: "Есть строки, которые парсер отверг (неизвестная директива, правило до User-agent, путь не с / или *, относительный Sitemap), или файл больше 500 КиБ.",
        glossary: ["директива — строка robots.txt вида «Имя: значение», например Disallow: /admin/", "500 КиБ — предел, после которого Google не читает robots.txt"],
      },
      en: {
        what: "Parses the fetched robots.txt per RFC 9309 with the Yandex extensions and looks at its size.",
        good: "The parser rejected no line and the file is at most 500 KiB.",
        bad: "Some lines were rejected (unknown directive, rule before User-agent, path not starting with / or *, relative Sitemap), or the file exceeds 500 KiB.",
        glossary: ["directive — a robots.txt line of the form \"Name: value\", e.g. Disallow: /admin/", "500 KiB — the size after which Google stops reading robots.txt"],
      },
    },
    plain: {
      ru: {
        name: "Файл robots.txt написан без ошибок",
        what: "robots.txt — короткая инструкция для поисковых роботов: куда на сайте им можно заходить.",
        why: "Строку с ошибкой робот молча пропускает, и закрытые разделы могут оказаться в поиске, а нужные — выпасть из него.",
        benefit: "Роботы понимают ваши правила ровно так, как вы их задумали.",
        effort: "минут 15: поправить несколько строк в файле",
        who: "веб-мастер или SEO-специалист",
      },
    },
  },
  ai_crawlers_blocked: {
    hint: {
      ru: {
        what: "Находит в robots.txt группу, которой подчиняются GPTBot, ClaudeBot, PerplexityBot, Google-Extended и CCBot (своя группа или группа *).",
        good: "Ни одному из этих роботов не запрещён весь сайт.",
        bad: "Хотя бы одному AI-роботу действует Disallow: / без Allow: / — только информация, если запрет намеренный.",
        glossary: ["AI-краулер — робот, собирающий тексты для ИИ-ассистентов и обучения моделей", "группа User-agent — набор правил robots.txt для перечисленных роботов"],
      },
      en: {
        what: "Finds the robots.txt group that GPTBot, ClaudeBot, PerplexityBot, Google-Extended and CCBot obey (their own group or the * group).",
        good: "None of these crawlers is shut out of the whole site.",
        bad: "At least one AI crawler gets Disallow: / with no Allow: / (information only, if the block is deliberate).",
        glossary: ["AI crawler — a bot collecting text for AI assistants and model training", "User-agent group — a set of robots.txt rules for the bots it names"],
      },
    },
    plain: {
      ru: {
        name: "Сайт открыт для ИИ-ассистентов",
        what: "ChatGPT, Claude, Perplexity и другие ассистенты читают сайты своими роботами, чтобы отвечать пользователям со ссылками.",
        why: "Если их роботы закрыты, ассистенты не процитируют сайт и не приведут оттуда посетителей.",
        benefit: "Сайт может попадать в ответы ИИ-ассистентов со ссылкой на вас.",
        effort: "минут 10: убрать запрет из robots.txt, если он не нужен",
        who: "владелец сайта решает, веб-мастер правит файл",
      },
    },
  },
  nosnippet: {
    hint: {
      ru: {
        what: "Ищет в мета-теге robots и заголовке X-Robots-Tag каждой страницы директивы nosnippet и max-snippet:0.",
        good: "Ни одна из этих директив на странице не задана.",
        bad: "Страница запрещает поисковику показывать под ссылкой текстовое описание.",
        glossary: ["сниппет — текст под заголовком страницы в результатах поиска", "max-snippet — директива, ограничивающая длину сниппета в символах"],
      },
      en: {
        what: "Looks for the nosnippet and max-snippet:0 directives in each page's robots meta tag and X-Robots-Tag header.",
        good: "Neither directive is set on the page.",
        bad: "The page forbids search engines to show a text preview under its link.",
        glossary: ["snippet — the text shown under a page's title in search results", "max-snippet — a directive that limits the snippet length in characters"],
      },
    },
    plain: {
      ru: {
        name: "Поиск показывает описание страниц",
        what: "Под каждой ссылкой в поиске обычно есть пара строк текста, которые объясняют, что на странице.",
        why: "Без этого описания ссылка выглядит пустой, и по ней реже переходят.",
        benefit: "Больше кликов из поисковой выдачи.",
        effort: "минут 10: убрать директиву из шаблона или настроек сервера",
        who: "веб-мастер или разработчик",
      },
    },
  },
  noimageindex: {
    hint: {
      ru: {
        what: "Ищет директиву noimageindex в мета-теге robots и заголовке X-Robots-Tag каждой страницы.",
        good: "Директива не задана: картинки страницы могут попасть в поиск по изображениям.",
        bad: "Страница просит не индексировать свои изображения.",
        glossary: ["noimageindex — директива robots, запрещающая индексировать картинки страницы", "поиск по картинкам — отдельная выдача Google и Яндекса с изображениями"],
      },
      en: {
        what: "Looks for the noimageindex directive in each page's robots meta tag and X-Robots-Tag header.",
        good: "The directive is absent: the page's pictures may appear in image search.",
        bad: "The page asks search engines not to index its pictures.",
        glossary: ["noimageindex — a robots directive that keeps a page's pictures out of the index", "image search — the separate Google and Yandex results made of pictures"],
      },
    },
    plain: {
      ru: {
        name: "Картинки сайта видны в поиске",
        what: "Google и Яндекс показывают картинки в отдельной выдаче, и оттуда тоже приходят посетители.",
        why: "Запрет закрывает этот источник трафика, часто случайно — из-за настройки шаблона.",
        benefit: "Дополнительные переходы из поиска по картинкам.",
        effort: "минут 10: убрать одно слово из мета-тега",
        who: "веб-мастер, правящий шаблон страниц",
      },
    },
  },
  meta_in_body: {
    hint: {
      ru: {
        what: "Проверяет по исходному HTML, не стоят ли мета-теги robots, description или link rel=canonical после открывающего <body>.",
        good: "Все эти теги находятся в <head>.",
        bad: "Хотя бы один из них оказался в <body>: браузер переносит его, а поисковик может проигнорировать.",
        glossary: ["<head> — служебная часть HTML-документа с мета-тегами", "<body> — видимая часть документа; служебные теги в ней не учитываются"],
      },
      en: {
        what: "Checks in the raw HTML whether the robots or description meta tag or link rel=canonical comes after the opening <body>.",
        good: "All of these tags sit in <head>.",
        bad: "At least one of them is in <body>: browsers move it, search engines may ignore it.",
        glossary: ["<head> — the metadata part of an HTML document", "<body> — the visible part of a document; metadata there is not honoured"],
      },
    },
    plain: {
      ru: {
        name: "Служебные теги стоят на своём месте",
        what: "Некоторые инструкции для поисковиков должны находиться в начале страницы, в её служебной части.",
        why: "Если тег попал ниже, поисковик его не видит: запрет индексации или главный адрес страницы перестают действовать.",
        benefit: "Поисковики выполняют ваши указания по индексации.",
        effort: "от получаса до пары часов: поправить шаблон или плагин",
        who: "разработчик, отвечающий за шаблон <head>",
      },
    },
  },
  sitemap_url_status: {
    hint: {
      ru: {
        what: "Проверяет по последнему полному обходу (не старше 30 дней) адреса карты сайта: отвечают ли они 200 без перенаправления и без noindex.",
        good: "Все адреса карты сайта отвечают 200 и открыты для индексации; без карты сайта проверка не применяется.",
        bad: "Хотя бы один адрес карты сайта перенаправляет, отвечает ошибкой или закрыт noindex.",
        glossary: ["адрес карты сайта — строка <loc> в sitemap.xml", "ответ 200 — сервер отдал страницу без ошибки и без перенаправления"],
      },
      en: {
        what: "Checks the sitemap's URLs in the latest whole-site crawl (at most 30 days old): do they answer 200, without a redirect and without noindex.",
        good: "Every sitemap URL answers 200 and may be indexed; a site without a sitemap is not judged.",
        bad: "At least one sitemap URL redirects, answers with an error or carries noindex.",
        glossary: ["sitemap URL — one <loc> entry of sitemap.xml", "200 answer — the server returned the page with no error and no redirect"],
      },
    },
    plain: {
      ru: {
        name: "В карте сайта только рабочие адреса",
        what: "Карта сайта — список страниц, который вы вручаете поисковикам; в нём не место старым и закрытым адресам.",
        why: "Поисковики перестают доверять карте, в которой много редиректов, ошибок и закрытых страниц.",
        benefit: "Робот тратит время только на страницы, которые вы хотите видеть в поиске.",
        effort: "от часа: настроить генератор карты или убрать лишние адреса",
        who: "разработчик, настраивающий генератор sitemap",
      },
    },
  },
  sitemap_missing_pages: {
    hint: {
      ru: {
        what: "Сравнивает индексируемые страницы последнего полного обхода (не старше 30 дней) со списком адресов карты сайта; без карты сайта проверка не применяется. Не считаются страницы, которые CMS намеренно не включает в карту: продолжения постраничных списков (/page/2/, ?paged=2), архивы по датам (/2023/05/) и копии других страниц (точные и почти точные дубли).",
        good: "Карта сайта перечисляет все индексируемые страницы, которые нашёл обход.",
        bad: "Обход нашёл индексируемые страницы, которых нет в карте сайта; задача информационная.",
        glossary: ["генератор карты сайта — модуль CMS или скрипт, который собирает sitemap.xml", "индексируемая страница обхода — страница с ответом 200 без noindex и без canonical на другой адрес"],
      },
      en: {
        what: "Compares the indexable pages of the latest whole-site crawl (at most 30 days old) with the sitemap's URLs; a site without a sitemap is not judged. Pages a CMS keeps out of its sitemap on purpose are not counted: further pages of a paginated series (/page/2/, ?paged=2), date archives (/2023/05/) and copies of other pages (exact or near-duplicates).",
        good: "The sitemap lists every indexable page the crawl found.",
        bad: "The crawl found indexable pages the sitemap lacks; the task is informational.",
        glossary: ["sitemap generator — the CMS module or script that builds sitemap.xml", "indexable crawled page — a page answering 200, without noindex and without a canonical elsewhere"],
      },
    },
    plain: {
      ru: {
        name: "Карта сайта полная",
        what: "Если генератор карты пропускает разделы, поисковик узнаёт о них только по ссылкам и позже.",
        why: "Страницы вне карты сайта медленнее попадают в поиск и реже обновляются в нём.",
        benefit: "Все разделы сайта, а не только попавшие в карту, быстро находятся поисковиками.",
        effort: "около часа: включить пропущенные разделы в настройках генератора карты",
        who: "администратор CMS или разработчик плагина карты сайта",
      },
    },
  },
  canonical_target: {
    hint: {
      ru: {
        what: "Проверяет по последнему полному обходу (не старше 30 дней), куда указывают канонические адреса: ответ 200, без перенаправления, без noindex, тот же хост.",
        good: "Каждый канонический адрес ведёт на работающую индексируемую страницу этого сайта; если canonical не объявлен нигде, проверка не применяется.",
        bad: "Канонический адрес указывает на перенаправление, ошибку, страницу с noindex или другой хост.",
        glossary: ["цель canonical — страница, которую rel=canonical называет основной", "хост — имя сайта в адресе, например example.com"],
      },
      en: {
        what: "Checks in the latest whole-site crawl (at most 30 days old) where canonical URLs point: a 200 answer, no redirect, no noindex, the same host.",
        good: "Every canonical leads to a working indexable page of this site; if no page declares a canonical, the check does not apply.",
        bad: "A canonical points to a redirect, an error, a noindex page or another host.",
        glossary: ["canonical target — the page rel=canonical names as the main one", "host — the site's name in a URL, e.g. example.com"],
      },
    },
    plain: {
      ru: {
        name: "Канонические ссылки ведут на живые страницы",
        what: "Canonical говорит поисковику, какую из похожих страниц считать главной.",
        why: "Если главная страница в canonical не открывается или закрыта от индекса, поисковик не знает, что показывать, и может выкинуть обе.",
        benefit: "В поиске остаётся именно та версия страницы, которую вы выбрали.",
        effort: "от часа: поправить шаблон, который подставляет canonical",
        who: "разработчик, отвечающий за SEO-теги шаблона",
      },
    },
  },
  redirect_chain: {
    hint: {
      ru: {
        what: "Находит в последнем полном обходе (не старше 30 дней) внутренние адреса, которые перенаправляют через два шага и больше или по кругу.",
        good: "Каждое внутреннее перенаправление приводит на конечный адрес за один шаг.",
        bad: "Есть цепочки из двух и более перенаправлений или петли; петля поднимает уровень задачи до критического.",
        glossary: ["цепочка перенаправлений — A → B → C вместо A → C", "петля перенаправлений — перенаправления, которые возвращаются к уже пройденному адресу"],
      },
      en: {
        what: "Finds in the latest whole-site crawl (at most 30 days old) the internal URLs that redirect through two hops or more, or in a loop.",
        good: "Every internal redirect reaches its final URL in one hop.",
        bad: "There are chains of two or more redirects, or loops; a loop raises the task to the bad level.",
        glossary: ["redirect chain — A → B → C instead of A → C", "redirect loop — redirects that come back to a URL already passed"],
      },
    },
    plain: {
      ru: {
        name: "Перенаправления без цепочек",
        what: "Когда старый адрес ведёт на новый не сразу, а через промежуточные, страница открывается медленнее.",
        why: "Поисковики проходят длинную цепочку не до конца, а петля делает страницу недоступной совсем.",
        benefit: "Страницы открываются быстро и полностью учитываются поисковиками.",
        effort: "около часа: свести правила перенаправлений на сервере к одному шагу",
        who: "администратор сервера, ведущий правила перенаправлений",
      },
    },
  },
  duplicate_urls: {
    hint: {
      ru: {
        what: "Ищет в последнем полном обходе (не старше 30 дней) адреса одной страницы, которые отличаются только косой чертой в конце, порядком параметров или метками отслеживания.",
        good: "У каждой обойдённой страницы один адрес.",
        bad: "Хотя бы одна страница открывается по нескольким вариантам адреса; оценка падает вместе с долей лишних вариантов.",
        glossary: ["метка отслеживания — параметр вроде utm_source, который добавляют для аналитики", "вариант адреса — другое написание того же адреса, например /page и /page/"],
      },
      en: {
        what: "Looks in the latest whole-site crawl (at most 30 days old) for URLs of one page that differ only by a trailing slash, parameter order or tracking parameters.",
        good: "Every crawled page has one URL.",
        bad: "At least one page opens under several URL variants; the score falls with the share of extra variants.",
        glossary: ["tracking parameter — a parameter such as utm_source added for analytics", "URL variant — another spelling of the same URL, e.g. /page and /page/"],
      },
    },
    plain: {
      ru: {
        name: "У каждой страницы один адрес",
        what: "Одна и та же страница по адресам со слешем и без, с метками рекламы или с переставленными параметрами — для поисковика разные страницы.",
        why: "Вес ссылок и статистика делятся между копиями, а робот обходит одно и то же несколько раз.",
        benefit: "Вся сила ссылок собирается на одном адресе страницы.",
        effort: "от часа: единые ссылки в шаблонах и редирект или canonical на основной адрес",
        who: "разработчик, отвечающий за маршруты и ссылки сайта",
      },
    },
  },
};
