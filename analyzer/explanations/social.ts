// Explanations of the social display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const SOCIAL: Readonly<Record<string, ExplanationText>> = {
  og_required: {
    hint: {
      ru: {
        what: "Ищет на каждой HTML-странице выборки непустые мета-теги og:title, og:type, og:url и og:image.",
        good: "На странице есть все четыре тега с содержимым.",
        bad: "Хотя бы одного из четырёх тегов нет или он пустой.",
        glossary: ["Open Graph — мета-теги, из которых соцсети и мессенджеры строят карточку ссылки", "og:image — картинка карточки ссылки"],
      },
      en: {
        what: "Looks for non-empty og:title, og:type, og:url and og:image meta tags on each sampled HTML page.",
        good: "The page has all four tags with content.",
        bad: "At least one of the four tags is missing or empty.",
        glossary: ["Open Graph — meta tags social networks and messengers build link cards from", "og:image — the image of a link card"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки красиво выглядят в соцсетях",
        what: "Когда ссылку на сайт присылают в Telegram или ВКонтакте, появляется карточка с картинкой и заголовком.",
        why: "Без нужных тегов карточка пустая или со случайной картинкой, и по ней реже кликают.",
        benefit: "Аккуратные карточки и больше переходов из соцсетей и мессенджеров.",
        effort: "час-два: добавить теги в шаблон страниц",
        who: "разработчик шаблонов или SMM-специалист",
      },
    },
  },
  twitter_card: {
    hint: {
      ru: {
        what: "Ищет на каждой HTML-странице мета-тег twitter:card и проверяет его тип.",
        good: "Тип карточки — summary, summary_large_image, app или player.",
        bad: "Тега нет или тип неизвестен: X/Twitter показывает ссылку без карточки.",
        glossary: ["twitter:card — мета-тег, задающий вид карточки ссылки в X (Twitter)", "summary_large_image — карточка с большой картинкой над заголовком"],
      },
      en: {
        what: "Looks for the twitter:card meta tag on each HTML page and checks its type.",
        good: "The card type is summary, summary_large_image, app or player.",
        bad: "The tag is missing or its type is unknown, so X/Twitter shows a plain link.",
        glossary: ["twitter:card — the meta tag that sets how a link card looks on X (Twitter)", "summary_large_image — a card with a large picture above the headline"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки оформлены для X (Twitter)",
        what: "X (бывший Twitter) строит карточку ссылки по своим мета-тегам.",
        why: "Без тега twitter:card ссылка на сайт в ленте выглядит как голый адрес и собирает меньше кликов.",
        benefit: "Заметные карточки ваших ссылок в X.",
        effort: "минут 15: один тег в шаблоне",
        who: "верстальщик шаблонов по просьбе SMM-специалиста",
      },
    },
  },
  og_image: {
    hint: {
      ru: {
        what: "Читает og:image (или og:image:url), og:image:secure_url и объявленные og:image:width и og:image:height страниц; саму картинку Svc не загружает.",
        good: "og:image — абсолютный адрес http(s), secure_url (если есть) — https, объявленные размеры не меньше 200 px по каждой стороне; страница без og:image не оценивается (это провал og_required).",
        bad: "Адрес относительный или не разбирается, secure_url не https или объявлен размер меньше 200×200 — соцсети покажут ссылку без картинки. Оценка по доле таких страниц.",
        glossary: ["абсолютный адрес картинки — адрес с https:// и доменом, который соцсеть может загрузить сама", "1200×630 — рекомендованный размер картинки для карточки ссылки"],
      },
      en: {
        what: "Reads og:image (or og:image:url), og:image:secure_url and the declared og:image:width and og:image:height of the pages; Svc does not download the image itself.",
        good: "og:image is an absolute http(s) URL, secure_url (when given) is https, and declared sizes are at least 200 px each; a page without og:image is not judged (og_required fails it).",
        bad: "A relative or unparsable URL, a secure_url that is not https, or a declared size under 200×200 — networks show the link without a picture. Scored by the share of such pages.",
        glossary: ["absolute image URL — an address with https:// and a host that the network can fetch by itself", "1200×630 — the advised image size for link cards"],
      },
    },
    plain: {
      ru: {
        name: "Картинка для соцсетей указана правильно",
        what: "Когда ссылкой делятся в соцсетях и мессенджерах, рядом показывается картинка из тега og:image.",
        why: "Если адрес неполный или картинка мала, карточка выйдет без изображения и её пролистают.",
        benefit: "Заметные карточки ссылок и больше переходов из соцсетей.",
        effort: "полчаса: поправить шаблон тегов и размер картинки",
        who: "разработчик вместе с дизайнером",
      },
    },
  },
  og_url_match: {
    hint: {
      ru: {
        what: "Сравнивает og:url страницы с её канонической ссылкой (rel=canonical или заголовок Link).",
        good: "Адреса совпадают; страницы без og:url или без canonical не оцениваются.",
        bad: "og:url указывает на другой адрес, чем canonical: репосты и реакции разных версий страницы не суммируются. Оценка по доле таких страниц.",
        glossary: ["og:url — адрес, который соцсети считают идентификатором страницы", "счётчик репостов — число публикаций ссылки, которое соцсеть ведёт по og:url"],
      },
      en: {
        what: "Compares the page's og:url with its canonical link (rel=canonical or the Link header).",
        good: "They match; pages without og:url or without a canonical are not judged.",
        bad: "og:url names another address than the canonical: shares and reactions to the page's variants do not add up. Scored by the share of such pages.",
        glossary: ["og:url — the address social networks use to identify the page", "share counter — the number of times a link was posted, kept per og:url"],
      },
    },
    plain: {
      ru: {
        name: "Адрес для соцсетей совпадает с основным",
        what: "Страница сообщает соцсетям свой адрес отдельным тегом og:url.",
        why: "Если он отличается от основного адреса, репосты разных версий страницы считаются отдельно, а в карточку попадает не тот адрес.",
        benefit: "Все репосты и реакции собираются на одной странице.",
        effort: "полчаса: выводить в og:url тот же адрес, что и в canonical",
        who: "разработчик, выводящий теги Open Graph",
      },
    },
  },
  og_description: {
    hint: {
      ru: {
        what: "На страницах с тегами Open Graph ищет непустой og:description.",
        good: "og:description есть; страницы совсем без Open Graph не оцениваются (это провал og_required).",
        bad: "Теги Open Graph есть, а описания нет: соцсеть подставит случайный текст или оставит карточку без описания (отладчик Facebook просит указывать его явно). Оценка по доле таких страниц.",
        glossary: ["og:description — текст под заголовком карточки ссылки", "карточка ссылки — превью с картинкой, заголовком и описанием в ленте или мессенджере"],
      },
      en: {
        what: "On pages with Open Graph tags, looks for a non-empty og:description.",
        good: "og:description is there; pages with no Open Graph at all are not judged (og_required fails them).",
        bad: "Open Graph tags without a description: the network fills in arbitrary text or leaves the card without one (Facebook's debugger asks for it explicitly). Scored by the share of such pages.",
        glossary: ["og:description — the text under a link card's title", "link card — the preview with picture, title and description in a feed or messenger"],
      },
    },
    plain: {
      ru: {
        name: "Описание для соцсетей",
        what: "Карточка ссылки в соцсети состоит из картинки, заголовка и короткого описания.",
        why: "Без явного описания соцсеть берёт случайный кусок страницы или не показывает ничего.",
        benefit: "Карточка объясняет, зачем переходить по ссылке.",
        effort: "полчаса: добавить og:description в шаблон страниц",
        who: "разработчик сайта или настройка SEO-плагина",
      },
    },
  },
  social_profiles: {
    hint: {
      ru: {
        what: "Ищет на главной ссылки на профили в соцсетях (Facebook, Instagram, X/Twitter, LinkedIn, YouTube, TikTok, Pinterest, Threads, ВКонтакте, Одноклассники, Telegram, Дзен, Rutube, GitHub) и поле sameAs в JSON-LD.",
        good: "Есть хотя бы одна ссылка на профиль или адрес в sameAs; кнопки «поделиться» (sharer, share, intent) профилями не считаются.",
        bad: "Ни одного профиля: поисковику труднее связать сайт с аккаунтами компании.",
        glossary: ["sameAs — свойство разметки со ссылками на другие страницы той же организации", "кнопка «поделиться» — ссылка, публикующая текущую страницу, а не ведущая в профиль"],
      },
      en: {
        what: "Looks for links to social network profiles on the home page (Facebook, Instagram, X/Twitter, LinkedIn, YouTube, TikTok, Pinterest, Threads, VK, OK, Telegram, Dzen, Rutube, GitHub) and for sameAs in its JSON-LD.",
        good: "At least one profile link or sameAs address; share buttons (sharer, share, intent) are not profiles.",
        bad: "No profile at all: search engines find it harder to tie the site to the company's accounts.",
        glossary: ["sameAs — the structured data property linking other pages of the same organisation", "share button — a link that posts the current page rather than leading to a profile"],
      },
    },
    plain: {
      ru: {
        name: "Сайт ссылается на свои соцсети",
        what: "Ссылки на официальные страницы в соцсетях обычно ставят в шапке или подвале.",
        why: "По ним посетители и поисковики убеждаются, что аккаунты принадлежат вам, и находят их.",
        benefit: "Больше подписчиков и доверия, профили появляются в поиске рядом с сайтом.",
        effort: "полчаса: добавить значки со ссылками и sameAs в разметку",
        who: "контент-менеджер или разработчик шаблона",
      },
    },
  },
};
