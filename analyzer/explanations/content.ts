// Explanations of the content display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const CONTENT: Readonly<Record<string, ExplanationText>> = {
  title_present: {
    hint: {
      ru: {
        what: "Проверяет, есть ли у каждой HTML-страницы выборки непустой элемент <title>.",
        good: "У каждой страницы есть <title> с текстом.",
        bad: "Хотя бы у одной страницы <title> нет или он пустой.",
        glossary: ["<title> — заголовок документа в <head>, заголовок сниппета в выдаче", "сниппет — блок результата поиска: заголовок, адрес и описание"],
      },
      en: {
        what: "Checks that every sampled HTML page has a non-empty <title> element.",
        good: "Every page has a <title> with text.",
        bad: "At least one page has no <title>, or an empty one.",
        glossary: ["<title> — the document title in <head>, the headline of a search result", "snippet — a search result block: headline, URL and description"],
      },
    },
    plain: {
      ru: {
        name: "У страниц есть заголовок",
        what: "Заголовок страницы — та синяя ссылка, которую человек видит в результатах поиска.",
        why: "Без него поисковик придумывает заголовок сам, часто неудачно, и по ссылке реже кликают.",
        benefit: "Понятный заголовок в выдаче и больше переходов из поиска.",
        effort: "час-два: настроить шаблон и заполнить заголовки",
        who: "SEO-специалист и разработчик шаблонов",
      },
    },
  },
  title_length: {
    hint: {
      ru: {
        what: "Считает символы непустого <title> каждой страницы выборки.",
        good: "От 20 до 60 символов включительно.",
        bad: "Короче 20 символов (мало смысла) или длиннее 60 (обрезается в выдаче).",
        glossary: ["длина заголовка — число символов (Unicode) в <title> без начальных и конечных пробелов", "обрезка — замена конца длинного заголовка многоточием в выдаче"],
      },
      en: {
        what: "Counts the characters of each sampled page's non-empty <title>.",
        good: "Between 20 and 60 characters inclusive.",
        bad: "Shorter than 20 characters (too little meaning) or longer than 60 (cut off in results).",
        glossary: ["title length — the number of Unicode characters in <title>, trimmed", "truncation — results replacing the end of a long title with an ellipsis"],
      },
    },
    plain: {
      ru: {
        name: "Заголовки подходящей длины",
        what: "В выдаче помещается примерно 60 символов заголовка.",
        why: "Длинный заголовок обрезается на полуслове, слишком короткий не объясняет, о чём страница.",
        benefit: "Заголовок целиком виден в поиске и лучше привлекает клики.",
        effort: "несколько часов: переписать заголовки ключевых страниц",
        who: "SEO-специалист или копирайтер",
      },
    },
  },
  title_duplicate: {
    hint: {
      ru: {
        what: "Сравнивает <title> индексируемых страниц последнего полного обхода (не старше 30 дней), а без него — страниц выборки, без учёта регистра и лишних пробелов (нужны хотя бы две страницы).",
        good: "У каждой страницы свой заголовок.",
        bad: "Хотя бы две индексируемые страницы имеют одинаковый заголовок.",
        glossary: ["индексируемая страница — страница без noindex, которую поисковик может показать", "дубль заголовка — один и тот же <title> на разных страницах"],
      },
      en: {
        what: "Compares the <title> of the indexable pages of the latest whole-site crawl (at most 30 days old), else of the sampled pages, ignoring case and extra spaces (needs at least two pages).",
        good: "Every page has its own title.",
        bad: "At least two indexable pages share the same title.",
        glossary: ["indexable page — a page without noindex that search engines may show", "duplicate title — the same <title> on different pages"],
      },
    },
    plain: {
      ru: {
        name: "Заголовки страниц не повторяются",
        what: "Каждая страница должна называться по-своему.",
        why: "Одинаковые заголовки мешают поисковику понять, какую страницу показывать, и они конкурируют друг с другом.",
        benefit: "Каждая страница находит в поиске свои запросы.",
        effort: "от часа до нескольких дней: шаблоны заголовков для каталога и ручная правка",
        who: "SEO-специалист вместе с контент-менеджером",
      },
    },
  },
  description_present: {
    hint: {
      ru: {
        what: "Проверяет у каждой HTML-страницы выборки непустой <meta name=\"description\">.",
        good: "У каждой страницы есть описание с текстом.",
        bad: "Хотя бы у одной страницы описания нет или оно пустое.",
        glossary: ["meta description — краткое описание страницы в <head>", "описание сниппета — текст под заголовком в результатах поиска"],
      },
      en: {
        what: "Checks each sampled HTML page for a non-empty <meta name=\"description\">.",
        good: "Every page has a description with text.",
        bad: "At least one page has no description, or an empty one.",
        glossary: ["meta description — a short summary of the page in <head>", "snippet description — the text under the headline in search results"],
      },
    },
    plain: {
      ru: {
        name: "У страниц есть описание",
        what: "Описание — пара предложений о странице, которые поисковик часто показывает под заголовком.",
        why: "Без него под ссылкой окажется случайный кусок текста страницы.",
        benefit: "Привлекательный текст в выдаче и больше переходов.",
        effort: "от часа до дня: заполнить описания для основных страниц",
        who: "контент-менеджер или SEO-специалист",
      },
    },
  },
  h1_present: {
    hint: {
      ru: {
        what: "Ищет на каждой HTML-странице выборки элемент <h1> с непустым текстом.",
        good: "На каждой странице есть непустой <h1>.",
        bad: "Хотя бы на одной странице <h1> нет или он пустой.",
        glossary: ["<h1> — главный заголовок на самой странице", "иерархия заголовков — порядок <h1>–<h6> от главного к подразделам"],
      },
      en: {
        what: "Looks for an <h1> element with non-empty text on each sampled HTML page.",
        good: "Every page has a non-empty <h1>.",
        bad: "At least one page has no <h1>, or only an empty one.",
        glossary: ["<h1> — the main heading on the page itself", "heading hierarchy — the order of <h1>–<h6> from main topic to subsections"],
      },
    },
    plain: {
      ru: {
        name: "На страницах есть главный заголовок",
        what: "Главный заголовок на странице сообщает и людям, и поисковикам её тему.",
        why: "Без него поисковику сложнее понять, о чём страница, а посетителю — что он туда попал.",
        benefit: "Тема страницы ясна поисковику и посетителю с первого взгляда.",
        effort: "час-два: поправить шаблон, чтобы название выводилось как h1",
        who: "верстальщик или разработчик темы",
      },
    },
  },
  h1_multiple: {
    hint: {
      ru: {
        what: "Считает элементы <h1> на страницах выборки, где он есть.",
        good: "На странице ровно один <h1>.",
        bad: "На странице два <h1> и больше.",
        glossary: ["<h2>–<h6> — заголовки разделов и подразделов", "логотип в h1 — частая причина лишнего <h1> в шаблоне"],
      },
      en: {
        what: "Counts the <h1> elements on the sampled pages that have one.",
        good: "The page has exactly one <h1>.",
        bad: "The page has two or more <h1> elements.",
        glossary: ["<h2>–<h6> — headings of sections and subsections", "logo in h1 — a frequent cause of an extra <h1> in templates"],
      },
    },
    plain: {
      ru: {
        name: "Один главный заголовок на странице",
        what: "У страницы одна главная тема, значит и главный заголовок один.",
        why: "Несколько главных заголовков размывают тему страницы для поисковика и экранных чтецов.",
        benefit: "Чёткая структура страницы для поиска и для людей с экранными чтецами.",
        effort: "около часа: заменить лишние h1 на h2 в шаблоне",
        who: "верстальщик, правящий разметку заголовков",
      },
    },
  },
  text_length: {
    hint: {
      ru: {
        what: "Считает слова текста на внутренних страницах выборки (главная пропускается).",
        good: "На странице не меньше 200 слов.",
        bad: "На странице меньше 200 слов — «тонкий» контент.",
        glossary: ["тонкий контент — страница почти без собственного текста", "число слов — слова видимого текста страницы без разметки"],
      },
      en: {
        what: "Counts the words of text on the sampled inner pages (the home page is skipped).",
        good: "The page has at least 200 words.",
        bad: "The page has fewer than 200 words — thin content.",
        glossary: ["thin content — a page with hardly any text of its own", "word count — the words of the page's visible text, markup excluded"],
      },
    },
    plain: {
      ru: {
        name: "На страницах достаточно текста",
        what: "Поисковики оценивают страницу прежде всего по её тексту.",
        why: "Страница из пары строк редко отвечает на вопрос человека и плохо ранжируется.",
        benefit: "Страницы начинают находиться по большему числу запросов.",
        effort: "дни-недели: написать тексты или объединить короткие страницы",
        who: "копирайтер или контент-менеджер",
      },
    },
  },
  img_alt_missing: {
    hint: {
      ru: {
        what: "Проверяет атрибут alt у каждого <img> страниц выборки (страницы без картинок пропускаются).",
        good: "У каждой картинки есть атрибут alt (пустой alt=\"\" для декоративных допустим).",
        bad: "Хотя бы у одной картинки атрибута alt нет вовсе.",
        glossary: ["alt — текстовое описание картинки для поисковиков и экранных чтецов", "декоративная картинка — элемент оформления без смысла, ей ставят alt=\"\""],
      },
      en: {
        what: "Checks the alt attribute of every <img> on the sampled pages (pages without images are skipped).",
        good: "Every image has an alt attribute (an empty alt=\"\" is fine for decorative ones).",
        bad: "At least one image has no alt attribute at all.",
        glossary: ["alt — a text description of an image for search engines and screen readers", "decorative image — an ornament with no meaning, given alt=\"\""],
      },
    },
    plain: {
      ru: {
        name: "У картинок есть описания",
        what: "Описание картинки читают поисковики и программы для незрячих людей.",
        why: "Без описаний картинки не находятся в поиске по изображениям, а часть посетителей не понимает страницу.",
        benefit: "Трафик из поиска по картинкам и доступность сайта для всех.",
        effort: "от часа до нескольких дней: заполнить описания в редакторе",
        who: "контент-менеджер, загружающий изображения",
      },
    },
  },
  title_multiple: {
    hint: {
      ru: {
        what: "Считает элементы <title> в каждой HTML-странице выборки.",
        good: "На странице ровно один <title>.",
        bad: "Элементов <title> несколько — поисковик сам выбирает, какой показать.",
        glossary: ["<title> — заголовок страницы во вкладке браузера и в результатах поиска", "плагин SEO — расширение CMS, которое часто добавляет свой <title>"],
      },
      en: {
        what: "Counts the <title> elements in each sampled HTML page.",
        good: "The page has exactly one <title>.",
        bad: "There are several <title> elements and the search engine picks which one to show.",
        glossary: ["<title> — the page's name in the browser tab and in search results", "SEO plugin — a CMS extension that often adds a <title> of its own"],
      },
    },
    plain: {
      ru: {
        name: "У каждой страницы один заголовок",
        what: "Заголовок страницы — первое, что человек видит в поиске. Он должен быть задан один раз.",
        why: "Когда заголовков два, поисковик может выбрать неудачный, и ссылка выглядит хуже.",
        benefit: "В поиске показывается именно тот заголовок, который вы написали.",
        effort: "час: найти тему или плагин, который дублирует тег",
        who: "разработчик сайта или настройщик CMS",
      },
    },
  },
  description_length: {
    hint: {
      ru: {
        what: "Измеряет длину непустого мета-описания каждой страницы в символах.",
        good: "Описание занимает от 80 до 160 символов.",
        bad: "Описание короче 80 символов (поисковик часто заменяет его) или длиннее 160 (обрезается в выдаче).",
        glossary: ["мета-описание — тег meta name=description с кратким пересказом страницы", "выдача — список результатов поиска"],
      },
      en: {
        what: "Measures the length of each page's non-empty meta description in characters.",
        good: "The description has 80 to 160 characters.",
        bad: "The description is under 80 characters (often replaced) or over 160 (cut off in results).",
        glossary: ["meta description — the meta name=description tag summing up the page", "results page — the list of search results"],
      },
    },
    plain: {
      ru: {
        name: "Описания страниц нужной длины",
        what: "Описание — пара предложений под ссылкой в поиске, которые вы пишете сами.",
        why: "Слишком короткое поисковик заменяет случайным куском текста, слишком длинное обрывается на полуслове.",
        benefit: "Описание в поиске выглядит законченным и убеждает перейти.",
        effort: "несколько минут на страницу",
        who: "автор текстов или контент-менеджер",
      },
    },
  },
  description_duplicate: {
    hint: {
      ru: {
        what: "Сравнивает нормализованные мета-описания индексируемых страниц последнего полного обхода (не старше 30 дней), а без него — страниц выборки.",
        good: "У каждой индексируемой страницы своё описание.",
        bad: "Одинаковое описание стоит на двух или более страницах.",
        glossary: ["индексируемая страница — страница без noindex, которая может попасть в поиск", "нормализация — сравнение без учёта регистра и лишних пробелов"],
      },
      en: {
        what: "Compares the normalised meta descriptions of the indexable pages of the latest whole-site crawl (at most 30 days old), else of the sampled pages.",
        good: "Each indexable page has a description of its own.",
        bad: "The same description appears on two or more pages.",
        glossary: ["indexable page — a page without noindex that may appear in search", "normalisation — comparing without regard to case and extra spaces"],
      },
    },
    plain: {
      ru: {
        name: "Описания страниц не повторяются",
        what: "Часто шаблон ставит на все страницы одно и то же описание сайта.",
        why: "Тогда в поиске разные страницы выглядят одинаково, и человек не понимает, какая ему нужна.",
        benefit: "Каждая страница в поиске объясняет, чем она полезна.",
        effort: "от часа: написать описания или настроить их генерацию",
        who: "контент-менеджер, автор описаний страниц",
      },
    },
  },
  duplicate_content: {
    hint: {
      ru: {
        what: "Берёт из последнего полного обхода (не старше 30 дней) индексируемые страницы, видимый текст которых дословно повторяет другая страница.",
        good: "Текст каждой индексируемой страницы встречается на сайте один раз.",
        bad: "Хотя бы у двух страниц одинаковый видимый текст; оценка падает вместе с долей таких страниц среди обойдённых.",
        glossary: ["видимый текст — то, что читает посетитель, без разметки, скриптов и стилей", "полный дубль — две страницы с текстом, совпадающим до символа"],
      },
      en: {
        what: "Takes from the latest whole-site crawl (at most 30 days old) the indexable pages whose visible text another page repeats word for word.",
        good: "The text of each indexable page appears on the site once.",
        bad: "At least two pages carry the same visible text; the score falls with the share of such pages among those crawled.",
        glossary: ["visible text — what a visitor reads, without markup, scripts and styles", "exact duplicate — two pages whose texts match character for character"],
      },
    },
    plain: {
      ru: {
        name: "Тексты страниц не повторяются",
        what: "Один и тот же текст на нескольких адресах — частый след фильтров, версий для печати и копий разделов.",
        why: "Поисковик выбирает одну копию сам и может показать не ту, а остальные тратят время робота.",
        benefit: "В поиске показывается та страница, которую вы считаете главной.",
        effort: "от нескольких часов до дней: склеить копии редиректом или canonical, переписать нужные",
        who: "SEO-специалист вместе с разработчиком, который знает, откуда берутся копии",
      },
    },
  },
  near_duplicate: {
    hint: {
      ru: {
        what: "Находит в последнем полном обходе (не старше 30 дней) индексируемые страницы, текст которых почти совпадает с текстом другой страницы.",
        good: "Нет пар страниц, различающихся лишь несколькими словами.",
        bad: "Есть страницы, отличающиеся от других лишь несколькими словами; задача информационная.",
        glossary: ["почти дубль — страница, текст которой отличается от другой лишь немногими словами", "SimHash — короткий отпечаток текста: у похожих текстов отпечатки почти совпадают"],
      },
      en: {
        what: "Finds in the latest whole-site crawl (at most 30 days old) the indexable pages whose text is nearly the same as another page's.",
        good: "No two pages differ in only a few words.",
        bad: "Some pages differ from others in only a few words; the task is informational.",
        glossary: ["near-duplicate — a page whose text differs from another's in only a few words", "SimHash — a short fingerprint of a text: similar texts get nearly equal fingerprints"],
      },
    },
    plain: {
      ru: {
        name: "Страницы не копируют друг друга почти целиком",
        what: "Карточки товаров, отличающиеся только цветом, или города с одинаковым текстом — типичные почти-копии.",
        why: "Поисковик видит в них одну страницу, и они отбирают друг у друга место в выдаче.",
        benefit: "Каждая страница получает свои запросы вместо борьбы с соседками.",
        effort: "от дня: объединить варианты на одной странице или дописать отличия",
        who: "копирайтер по заданию SEO-специалиста",
      },
    },
  },
};
