// Explanations of the technical display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const TECHNICAL: Readonly<Record<string, ExplanationText>> = {
  ttfb: {
    hint: {
      ru: {
        what: "Замеряет время до первого байта на страницах выборки и берёт 75-й процентиль по сайту.",
        good: "75-й процентиль не больше 600 мс.",
        bad: "Больше 600 мс — половинный провал (медленные страницы перечислены); больше 1800 мс — серьёзная проблема.",
        glossary: ["TTFB — время от запроса до первого байта ответа сервера", "75-й процентиль — значение, которое не превышают три четверти замеров"],
      },
      en: {
        what: "Times the first byte on the sampled pages and takes the site's 75th percentile.",
        good: "The 75th percentile is 600 ms or less.",
        bad: "Over 600 ms is a half failure (the slow pages are listed); over 1800 ms is a serious problem.",
        glossary: ["TTFB — time from the request to the first byte of the server's answer", "75th percentile — the value three quarters of the measurements do not exceed"],
      },
    },
    plain: {
      ru: {
        name: "Сервер отвечает быстро",
        what: "Меряем, сколько сервер думает, прежде чем начать отдавать страницу.",
        why: "Пока сервер молчит, посетитель видит белый экран; медленные сайты хуже ранжируются и теряют людей.",
        benefit: "Страницы начинают открываться заметно быстрее.",
        effort: "от дня до недели: кэширование, CDN, оптимизация базы и плагинов",
        who: "бэкенд-разработчик и администратор сервера",
      },
    },
  },
  compression: {
    hint: {
      ru: {
        what: "Смотрит Content-Encoding текстовых ответов от 1 КБ: HTML, CSS, JavaScript, JSON, XML, SVG.",
        good: "Каждый такой ответ сжат br, gzip, zstd или deflate.",
        bad: "Хотя бы один текстовый ответ от 1 КБ отдан без сжатия.",
        glossary: ["Content-Encoding — заголовок, называющий способ сжатия ответа", "Brotli (br) и gzip — алгоритмы сжатия, которые понимают все браузеры"],
      },
      en: {
        what: "Reads the Content-Encoding of text responses of 1 KB or more: HTML, CSS, JavaScript, JSON, XML, SVG.",
        good: "Every such response is compressed with br, gzip, zstd or deflate.",
        bad: "At least one text response of 1 KB or more is served uncompressed.",
        glossary: ["Content-Encoding — the header naming how a response is compressed", "Brotli (br) and gzip — compression formats every browser understands"],
      },
    },
    plain: {
      ru: {
        name: "Сжатие включено",
        what: "Сервер может сжимать страницы перед отправкой, как архиватор.",
        why: "Без сжатия страницы весят в 3–5 раз больше и дольше грузятся, особенно на мобильном интернете.",
        benefit: "Страницы загружаются быстрее, расходуется меньше трафика.",
        effort: "минут 15, правка конфигурации сервера",
        who: "администратор веб-сервера или CDN",
      },
    },
  },
  charset: {
    hint: {
      ru: {
        what: "Ищет кодировку страниц выборки в заголовке Content-Type и в <meta charset>.",
        good: "Кодировка указана хотя бы в одном из двух мест.",
        bad: "Хотя бы у одной страницы кодировка не указана ни в заголовке, ни в meta.",
        glossary: ["кодировка — способ записи букв байтами, обычно UTF-8", "Content-Type — заголовок с типом и кодировкой ответа"],
      },
      en: {
        what: "Looks for the encoding of the sampled pages in the Content-Type header and in <meta charset>.",
        good: "The encoding is declared in at least one of the two places.",
        bad: "At least one page declares its encoding in neither the header nor a meta tag.",
        glossary: ["character encoding — how letters are written as bytes, usually UTF-8", "Content-Type — the header carrying a response's type and charset"],
      },
    },
    plain: {
      ru: {
        name: "Указана кодировка",
        what: "Браузеру нужно знать, в какой кодировке записан текст страницы.",
        why: "Без неё браузер угадывает, и русский текст может превратиться в «кракозябры».",
        benefit: "Текст всегда отображается правильно у всех посетителей.",
        effort: "минут 10: одна строка в шаблоне или настройке сервера",
        who: "верстальщик или администратор сервера",
      },
    },
  },
  doctype: {
    hint: {
      ru: {
        what: "Проверяет, начинается ли каждый HTML-документ выборки с объявления <!DOCTYPE html>.",
        good: "Объявление есть у каждой страницы.",
        bad: "Хотя бы у одной страницы объявления нет — браузер рисует её в режиме совместимости (quirks mode).",
        glossary: ["DOCTYPE — первая строка HTML, задающая стандартный режим отображения", "quirks mode — режим имитации старых браузеров с иной вёрсткой"],
      },
      en: {
        what: "Checks that every sampled HTML document starts with the <!DOCTYPE html> declaration.",
        good: "Every page has the declaration.",
        bad: "At least one page lacks it, so browsers render it in quirks mode.",
        glossary: ["DOCTYPE — the first line of HTML selecting standards mode", "quirks mode — a rendering mode imitating old browsers, with different layout rules"],
      },
    },
    plain: {
      ru: {
        name: "Страницы объявляют тип документа",
        what: "Первая строка страницы сообщает браузеру, что это современный HTML.",
        why: "Без неё браузеры включают старый режим, и вёрстка может поехать.",
        benefit: "Страница выглядит одинаково во всех браузерах.",
        effort: "минут 10-30: добавить строку в начало шаблонов",
        who: "верстальщик шаблонов",
      },
    },
  },
  html_size: {
    hint: {
      ru: {
        what: "Измеряет размер HTML-ответов страниц выборки.",
        good: "Каждая HTML-страница не больше 2 МиБ.",
        bad: "Страница больше 2 МиБ или не уложилась в лимит загрузки краулера; больше 15 МиБ — серьёзно: Google дальше не читает.",
        glossary: ["МиБ — мебибайт, 1 048 576 байт", "инлайн-данные — картинки и данные, встроенные прямо в HTML (например base64)"],
      },
      en: {
        what: "Measures the size of the sampled pages' HTML responses.",
        good: "Every HTML page is 2 MiB or smaller.",
        bad: "A page is over 2 MiB or exceeded the crawler's download limit; over 15 MiB is serious, as Google stops reading there.",
        glossary: ["MiB — mebibyte, 1,048,576 bytes", "inline data — images and data embedded in the HTML itself (e.g. base64)"],
      },
    },
    plain: {
      ru: {
        name: "Страницы не слишком тяжёлые",
        what: "Сам HTML-код страницы без картинок обычно весит десятки килобайт.",
        why: "Огромная страница долго грузится, а поисковик может не дочитать её до конца.",
        benefit: "Быстрая загрузка и полная индексация текста страницы.",
        effort: "от часа до пары дней: разбить длинные списки на страницы, вынести встроенные картинки",
        who: "фронтенд-разработчик",
      },
    },
  },
  favicon: {
    hint: {
      ru: {
        what: "Запрашивает иконку сайта (объявленную в <link rel=icon> или /favicon.ico).",
        good: "Иконка отвечает 200 с типом image/*.",
        bad: "Иконка отвечает ошибкой или отдаётся не картинкой (например HTML-страницей).",
        glossary: ["favicon — значок сайта во вкладке браузера и в выдаче", "image/* — типы содержимого изображений (image/png, image/x-icon…)"],
      },
      en: {
        what: "Requests the site icon (declared with <link rel=icon> or /favicon.ico).",
        good: "The icon answers 200 with an image/* content type.",
        bad: "The icon answers with an error or is not an image (for example an HTML page).",
        glossary: ["favicon — the site's icon in browser tabs and search results", "image/* — image content types (image/png, image/x-icon…)"],
      },
    },
    plain: {
      ru: {
        name: "Есть значок сайта",
        what: "Маленький значок сайта виден во вкладке браузера, в закладках и в выдаче Яндекса и Google.",
        why: "Без значка сайт выглядит незаконченным и хуже узнаётся среди результатов поиска.",
        benefit: "Сайт узнаваем во вкладках и в поисковой выдаче.",
        effort: "минут 15: положить картинку и добавить ссылку на неё",
        who: "дизайнер и верстальщик",
      },
    },
  },
  dom_size: {
    hint: {
      ru: {
        what: "Считает HTML-элементы каждой страницы по разобранному документу.",
        good: "На странице не больше 1500 элементов.",
        bad: "Элементов больше 1500: страница медленнее строится и перерисовывается, особенно на телефонах.",
        glossary: ["DOM — дерево элементов страницы, которое строит браузер", "элемент — один тег HTML, например <div> или <a>"],
      },
      en: {
        what: "Counts the HTML elements of each page in the parsed document.",
        good: "The page has at most 1500 elements.",
        bad: "There are more than 1500 elements: the page builds and repaints slower, especially on phones.",
        glossary: ["DOM — the tree of page elements a browser builds", "element — one HTML tag, such as <div> or <a>"],
      },
    },
    plain: {
      ru: {
        name: "Страницы не перегружены разметкой",
        what: "Каждая страница состоит из элементов: блоков, ссылок, картинок. Чем их больше, тем больше работы у браузера.",
        why: "Перегруженные страницы тормозят на слабых телефонах, а поисковики учитывают скорость.",
        benefit: "Страницы быстрее открываются и плавнее прокручиваются.",
        effort: "от дня: упростить шаблон, разбить длинные списки",
        who: "фронтенд-разработчик или верстальщик шаблона",
      },
    },
  },
  duplicate_ids: {
    hint: {
      ru: {
        what: "Собирает атрибуты id каждой страницы и ищет повторяющиеся значения.",
        good: "Каждое значение id встречается на странице один раз.",
        bad: "Одно и то же значение id стоит у нескольких элементов.",
        glossary: ["id — уникальное имя элемента, на которое ссылаются якоря, подписи форм и скрипты", "якорь — ссылка вида #имя на место внутри страницы"],
      },
      en: {
        what: "Collects each page's id attributes and looks for repeated values.",
        good: "Every id value occurs once on the page.",
        bad: "The same id value is used by several elements.",
        glossary: ["id — an element's unique name used by anchors, form labels and scripts", "anchor — a link of the form #name to a spot inside the page"],
      },
    },
    plain: {
      ru: {
        name: "В разметке нет повторяющихся имён",
        what: "Элементы страницы могут иметь имена, по которым к ним обращаются ссылки, формы и скрипты.",
        why: "Если имя повторяется, ссылка ведёт не туда, подпись не связана с полем, а скрипт меняет не тот блок.",
        benefit: "Ссылки внутри страницы и формы работают предсказуемо, страница доступнее.",
        effort: "час-два: переименовать повторы в шаблоне",
        who: "верстальщик, отвечающий за разметку",
      },
    },
  },
  meta_refresh: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки тег <meta http-equiv=\"refresh\"> и читает его задержку и адрес перехода.",
        good: "Тега нет, или задержка не меньше 20 часов (72 000 секунд) — столько допускает правило meta-refresh, которое Lighthouse берёт у axe.",
        bad: "Страница сама перезагружается или уводит на другой адрес раньше чем через 20 часов: читатель теряет место, а поисковик получает вместо 301 слабый сигнал переезда. Оценка по доле таких страниц.",
        glossary: ["meta refresh — тег, который велит браузеру через N секунд перезагрузить страницу или перейти на другую", "серверный 301 — постоянное перенаправление, которое сервер отдаёт до загрузки страницы"],
      },
      en: {
        what: "Looks for <meta http-equiv=\"refresh\"> on the sampled pages and reads its delay and target.",
        good: "No such tag, or a delay of at least 20 hours (72,000 seconds) — what the meta-refresh rule Lighthouse takes from axe allows.",
        bad: "The page reloads itself or sends the reader elsewhere within 20 hours: readers lose their place, and search engines get a weaker signal of the move than a 301. Scored by the share of such pages.",
        glossary: ["meta refresh — a tag telling the browser to reload the page or go to another after N seconds", "server-side 301 — a permanent redirect the server answers with before any page loads"],
      },
    },
    plain: {
      ru: {
        name: "Страницы не перезагружаются сами",
        what: "Специальный тег может сам обновлять страницу или перебрасывать посетителя на другой адрес.",
        why: "Это сбивает читающих и людей с экранными дикторами, а поисковики понимают такой переход хуже обычного перенаправления.",
        benefit: "Посетители читают спокойно, переезд страниц правильно учитывается поиском.",
        effort: "полчаса: заменить тег перенаправлением на сервере",
        who: "разработчик, отвечающий за шаблоны",
      },
    },
  },
  deprecated_tags: {
    hint: {
      ru: {
        what: "Ищет в разметке страниц элементы, которые стандарт HTML объявил устаревшими: <font>, <center>, <marquee>, <frame>, <big>, <tt>, <strike> и другие.",
        good: "Ни одного устаревшего элемента нет.",
        bad: "Хотя бы один такой элемент есть: браузеры поддерживают их только ради совместимости, а оформление должно задаваться стилями. Оценка по доле таких страниц.",
        glossary: ["устаревший элемент — тег, который стандарт HTML больше не допускает", "CSS — язык оформления страниц: шрифты, цвета, выравнивание"],
      },
      en: {
        what: "Looks for elements the HTML standard declares obsolete in the pages' markup: <font>, <center>, <marquee>, <frame>, <big>, <tt>, <strike> and others.",
        good: "No obsolete element is used.",
        bad: "At least one is: browsers keep them only for compatibility, and presentation belongs in stylesheets. Scored by the share of such pages.",
        glossary: ["obsolete element — a tag the HTML standard no longer allows", "CSS — the language of page presentation: fonts, colours, alignment"],
      },
    },
    plain: {
      ru: {
        name: "В разметке нет устаревших тегов",
        what: "Некоторые теги из 90-х, например <font> и <center>, давно исключены из стандарта.",
        why: "Они выдают старый шаблон, мешают вёрстке для телефонов и однажды могут перестать работать.",
        benefit: "Современный код, который одинаково выглядит во всех браузерах.",
        effort: "час-два: заменить теги стилями в шаблоне",
        who: "верстальщик, поддерживающий шаблон",
      },
    },
  },
};
