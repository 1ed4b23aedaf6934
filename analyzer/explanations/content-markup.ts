// Explanations of the content display group: how the page's text and images are marked up. Pure data.
import type { ExplanationText } from "./types.ts";

export const CONTENT_MARKUP: Readonly<Record<string, ExplanationText>> = {
  description_multiple: {
    hint: {
      ru: {
        what: "Считает теги <meta name=\"description\"> на каждой странице выборки.",
        good: "Не больше одного описания на странице.",
        bad: "Два описания и больше: поисковик выбирает одно сам, часто не то, что задумано. Оценка по доле таких страниц.",
        glossary: ["дублирующий тег — второй такой же тег, вставленный плагином или шаблоном", "CMS — система управления сайтом, которая собирает страницы из шаблонов"],
      },
      en: {
        what: "Counts the <meta name=\"description\"> tags of every sampled page.",
        good: "At most one description per page.",
        bad: "Two descriptions or more: the search engine picks one itself, often not the intended one. Scored by the share of such pages.",
        glossary: ["duplicate tag — a second copy of the same tag inserted by a plugin or template", "CMS — the content management system assembling pages from templates"],
      },
    },
    plain: {
      ru: {
        name: "Одно описание на странице",
        what: "Описание страницы для поисковиков задаётся одним специальным тегом.",
        why: "Когда тема оформления и плагины добавляют свои описания, поисковик сам решает, какое показать, и часто выбирает неудачное.",
        benefit: "В выдаче показывается то описание, которое вы написали.",
        effort: "полчаса: отключить лишний источник описания в теме или плагине",
        who: "разработчик или администратор CMS",
      },
    },
  },
  headings_order: {
    hint: {
      ru: {
        what: "Проходит по порядку заголовки <h1>–<h6> каждой страницы выборки.",
        good: "Уровни опускаются по одному (h1 → h2 → h3); подниматься можно на любое число уровней; страницы без заголовков не оцениваются.",
        bad: "Уровень пропущен (за h2 сразу h4) или перед <h1> стоит другой заголовок; страницу совсем без <h1> оценивает h1_present. Оценка по доле таких страниц.",
        glossary: ["структура заголовков — дерево разделов страницы по уровням h1–h6", "пропуск уровня — переход, например, от h2 сразу к h4"],
      },
      en: {
        what: "Walks the <h1>–<h6> headings of every sampled page in order.",
        good: "Levels go down one at a time (h1 → h2 → h3); going back up by any number is fine; pages without headings are not judged.",
        bad: "A level is skipped (h2 followed by h4) or another heading comes before the <h1>; a page with no <h1> at all is h1_present's finding. Scored by the share of such pages.",
        glossary: ["heading outline — the tree of a page's sections built from the h1–h6 levels", "skipped level — a step such as h2 straight to h4"],
      },
    },
    plain: {
      ru: {
        name: "Заголовки по порядку",
        what: "Заголовки на странице образуют оглавление: главный, разделы, подразделы.",
        why: "Пропущенные уровни сбивают программы чтения с экрана и мешают поисковику понять структуру текста.",
        benefit: "Страницу легче просматривать людям и разбирать поисковикам.",
        effort: "час: поправить уровни заголовков в шаблоне и стилях",
        who: "верстальщик или редактор",
      },
    },
  },
  headings_empty: {
    hint: {
      ru: {
        what: "Ищет на страницах заголовки <h1>–<h6> без текста; alt картинки внутри заголовка считается его текстом.",
        good: "У всех заголовков есть текст; страницы без заголовков не оцениваются.",
        bad: "Хотя бы один заголовок пуст: программа чтения с экрана объявит пустой раздел, а поисковик не получит подсказки о теме. Оценка по доле таких страниц.",
        glossary: ["пустой заголовок — тег h1–h6 без текста, часто оставленный шаблоном", "программа чтения с экрана — программа, озвучивающая страницу незрячим"],
      },
      en: {
        what: "Looks for <h1>–<h6> headings without text; the alt text of an image inside a heading counts as its text.",
        good: "Every heading has text; pages without headings are not judged.",
        bad: "At least one heading is empty: a screen reader announces an empty section, and search engines get no hint of the topic. Scored by the share of such pages.",
        glossary: ["empty heading — an h1–h6 tag without text, often left by a template", "screen reader — software that reads a page aloud to blind users"],
      },
    },
    plain: {
      ru: {
        name: "Нет пустых заголовков",
        what: "Шаблоны иногда оставляют заголовки без текста: на экране их не видно, но в коде они есть.",
        why: "Незрячие посетители слышат «заголовок» без слов, а поисковик теряет подсказку о теме раздела.",
        benefit: "Чистая структура страницы для людей и поисковиков.",
        effort: "полчаса: убрать пустые теги из шаблона",
        who: "верстальщик или автор темы оформления",
      },
    },
  },
  lorem_ipsum: {
    hint: {
      ru: {
        what: "Ищет во всём видимом тексте страниц выборки фразу «lorem ipsum» — стандартный текст-заполнитель.",
        good: "Ни на одной странице заполнителя нет.",
        bad: "Заполнитель есть хотя бы на одной странице: вместо содержимого опубликован макет. Оценка по доле таких страниц.",
        glossary: ["lorem ipsum — бессмысленный латинский текст, которым дизайнеры заполняют макеты", "заглушка — временный текст, который должны были заменить настоящим до публикации"],
      },
      en: {
        what: "Looks for the phrase \"lorem ipsum\", the standard placeholder text, anywhere in the visible text of the sampled pages.",
        good: "No page carries the placeholder.",
        bad: "At least one page does: a mock-up was published instead of content. Scored by the share of such pages.",
        glossary: ["lorem ipsum — meaningless Latin text designers fill mock-ups with", "placeholder — temporary text meant to be replaced by the real one before publishing"],
      },
    },
    plain: {
      ru: {
        name: "Нет текста-заглушки",
        what: "При разработке страницы заполняют условным текстом «Lorem ipsum», который потом заменяют настоящим.",
        why: "Забытая заглушка выглядит непрофессионально, а поисковики считают такую страницу бесполезной.",
        benefit: "Посетители видят готовый сайт, страницы могут занимать места в поиске.",
        effort: "от часа: написать текст или скрыть незаконченные страницы",
        who: "редактор или контент-менеджер",
      },
    },
  },
  img_alt_long: {
    hint: {
      ru: {
        what: "Считает символы (не байты) в непустых alt картинок на страницах выборки.",
        good: "Каждый alt не длиннее 100 символов (порог SEOnaut и Screaming Frog); страницы без описанных картинок не оцениваются.",
        bad: "Хотя бы один alt длиннее 100 символов: его зачитывают целиком, а поисковик может принять его за набор ключевых слов. Оценка по доле таких страниц.",
        glossary: ["альтернативный текст — описание картинки, которое читают вместо неё", "подпись figcaption — видимый текст под картинкой для длинных пояснений"],
      },
      en: {
        what: "Counts the characters (not bytes) of the non-empty image alt texts on the sampled pages.",
        good: "Every alt is at most 100 characters (the SEOnaut and Screaming Frog threshold); pages without described images are not judged.",
        bad: "At least one alt is longer than 100 characters: it is read out in full, and search engines may take it for keyword stuffing. Scored by the share of such pages.",
        glossary: ["alternative text — the description read in place of an image", "figcaption — a visible caption under an image, for longer explanations"],
      },
    },
    plain: {
      ru: {
        name: "Короткие описания картинок",
        what: "У картинок есть скрытое текстовое описание для поисковиков и незрячих посетителей.",
        why: "Слишком длинное описание утомляет слушателя и похоже на спам ключевыми словами.",
        benefit: "Картинки понятны всем и лучше находятся в поиске по картинкам.",
        effort: "час: сократить описания в медиатеке",
        who: "редактор, ведущий медиатеку сайта",
      },
    },
  },
  picture_no_img: {
    hint: {
      ru: {
        what: "Ищет на страницах элементы <picture>, внутри которых нет <img>.",
        good: "В каждом <picture> есть запасной <img>; страницы без <picture> тоже проходят.",
        bad: "Хотя бы один <picture> без <img>: браузер ничего не покажет, а поисковик не увидит картинку. Оценка по доле таких страниц.",
        glossary: ["<picture> — обёртка, дающая браузеру выбор форматов и размеров одной картинки", "<source> — вариант картинки внутри <picture> для определённого формата или экрана"],
      },
      en: {
        what: "Looks for <picture> elements with no <img> inside on the sampled pages.",
        good: "Every <picture> has its fallback <img>; pages without <picture> pass too.",
        bad: "At least one <picture> has no <img>: the browser shows nothing and search engines see no image. Scored by the share of such pages.",
        glossary: ["<picture> — a wrapper offering the browser several formats and sizes of one image", "<source> — one variant of the image inside <picture>, for a format or screen"],
      },
    },
    plain: {
      ru: {
        name: "Картинки не пропадают",
        what: "Современная вёрстка предлагает браузеру несколько вариантов картинки, а обычную оставляет запасной.",
        why: "Без запасной картинки браузер показывает пустое место, а поисковик не знает, что там изображение.",
        benefit: "Картинки видны всем посетителям и попадают в поиск.",
        effort: "полчаса: добавить тег в шаблон",
        who: "верстальщик, отвечающий за вывод картинок",
      },
    },
  },
};
