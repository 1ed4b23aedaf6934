// Explanations of the mobile display group. Pure data.
import type { Explanation } from "./types.ts";

export const MOBILE: Readonly<Record<string, Explanation>> = {
  viewport: {
    hint: {
      ru: {
        what: "Разбирает <meta name=\"viewport\"> каждой HTML-страницы выборки.",
        good: "Есть width=device-width, масштабирование не запрещено и maximum-scale не меньше 5.",
        bad: "Нет тега или width=device-width — провал; user-scalable=no (или 0) либо maximum-scale меньше 5 — половинный провал.",
        glossary: ["viewport — область экрана, под которую браузер раскладывает страницу", "device-width — ширина экрана устройства"],
      },
      en: {
        what: "Parses the <meta name=\"viewport\"> of each sampled HTML page.",
        good: "It has width=device-width, zoom is not disabled and maximum-scale is at least 5.",
        bad: "No tag or no width=device-width fails; user-scalable=no (or 0) or maximum-scale under 5 is a half failure.",
        glossary: ["viewport — the screen area the browser lays the page out for", "device-width — the width of the device's screen"],
      },
    },
    plain: {
      ru: {
        name: "Сайт удобен на телефоне",
        what: "Одна строка в коде страницы говорит телефону показывать её под ширину экрана.",
        why: "Без неё телефон показывает уменьшенную версию для компьютера, а поисковики понижают сайт в мобильной выдаче.",
        benefit: "Сайтом удобно пользоваться с телефона, мобильная выдача не страдает.",
        effort: "минут 15, если вёрстка адаптивная; иначе — переделка вёрстки",
        who: "верстальщик, отвечающий за мобильную версию",
      },
    },
    guide: null,
  },
};
