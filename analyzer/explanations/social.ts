// Explanations of the social display group. Pure data.
import type { Explanation } from "./types.ts";

export const SOCIAL: Readonly<Record<string, Explanation>> = {
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
    guide: null,
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
    guide: null,
  },
};
