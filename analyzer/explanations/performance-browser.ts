// Explanations of the browser-metric checks of the performance display group (lcp, cls, tbt, fcp).
// Pure data.
import type { ExplanationText } from "./types.ts";

export const PERFORMANCE_BROWSER: Readonly<Record<string, ExplanationText>> = {
  lcp: {
    hint: {
      ru: {
        what: "Загружает главную страницу в headless Chromium (мобильный экран 412×823, без искусственного замедления) и измеряет, когда отрисован самый крупный блок первого экрана.",
        good: "Оценка не ниже 0,9 по кривой Lighthouse для мобильных: примерно до 2,5 с.",
        bad: "Оценка ниже 0,5: крупнейший блок появляется позже 4 с; между 0,5 и 0,9 — предупреждение.",
        glossary: ["LCP (Largest Contentful Paint) — момент отрисовки самого крупного изображения или текстового блока на первом экране", "логнормальная оценка — способ Lighthouse переводить миллисекунды в балл от 0 до 1 по двум опорным точкам"],
      },
      en: {
        what: "Loads the home page in headless Chromium (a 412×823 mobile screen, no artificial slowdown) and measures when the largest block of the first screen is painted.",
        good: "A score of 0.9 or more on Lighthouse's mobile curve: about 2.5 s or less.",
        bad: "A score below 0.5: the largest block appears after 4 s; between 0.5 and 0.9 it is a warning.",
        glossary: ["LCP (Largest Contentful Paint) — when the largest image or text block of the first screen is painted", "log-normal score — Lighthouse's way of turning milliseconds into a 0–1 score from two control points"],
      },
    },
    plain: {
      ru: {
        name: "Главное на странице появляется быстро",
        what: "Сколько посетитель ждёт, пока на экране появится основное: картинка-обложка или заголовок с текстом.",
        why: "Если главное долго не видно, посетитель уходит, а поисковики учитывают это время в ранжировании.",
        benefit: "Меньше отказов на первом экране и лучше оценка Core Web Vitals в поиске.",
        effort: "от дня до недели: ускорить сервер, сжать и заранее подгрузить главную картинку",
        who: "фронтенд-разработчик вместе с тем, кто отвечает за сервер",
      },
      en: {
        name: "The main content shows up fast",
        what: "How long a visitor waits until the main thing on screen appears: the cover image or the headline with its text.",
        why: "When the main content stays invisible, visitors leave, and search engines count this time in ranking.",
        benefit: "Fewer visitors lost on the first screen and a better Core Web Vitals assessment in search.",
        effort: "a day to a week: a faster server, a compressed and preloaded hero image",
        who: "a front-end developer together with whoever runs the server",
      },
    },
  },
  cls: {
    hint: {
      ru: {
        what: "Во время загрузки главной страницы в браузере суммирует сдвиги видимых элементов в самом тяжёлом окне (паузы короче 1 с, окно не длиннее 5 с).",
        good: "Суммарный сдвиг не больше 0,1 (оценка 0,9 и выше).",
        bad: "Сдвиг больше 0,25 — провал; от 0,1 до 0,25 — предупреждение.",
        glossary: ["CLS (Cumulative Layout Shift) — мера того, насколько содержимое прыгает во время загрузки", "сессионное окно — серия сдвигов с паузами меньше секунды; в зачёт идёт худшая серия"],
      },
      en: {
        what: "While the home page loads in the browser, adds up the shifts of visible elements in the worst window (gaps under 1 s, at most 5 s long).",
        good: "A total shift of 0.1 or less (score 0.9 or more).",
        bad: "More than 0.25 fails; between 0.1 and 0.25 is a warning.",
        glossary: ["CLS (Cumulative Layout Shift) — how much the content jumps around while loading", "session window — a run of shifts with gaps under a second; the worst run counts"],
      },
    },
    plain: {
      ru: {
        name: "Страница не прыгает при загрузке",
        what: "Проверяем, не сдвигаются ли текст и кнопки, когда догружаются картинки, баннеры или шрифты.",
        why: "Из-за сдвигов посетитель теряет строку при чтении и нажимает не туда — это раздражает и стоит заказов.",
        benefit: "Спокойная страница, меньше случайных нажатий, лучше оценка Core Web Vitals.",
        effort: "от часа до нескольких дней: зарезервировать место под картинки, рекламу и всплывающие блоки",
        who: "верстальщик, а для рекламных блоков — тот, кто их подключает",
      },
      en: {
        name: "The page does not jump while loading",
        what: "We check whether text and buttons move when images, banners or fonts arrive late.",
        why: "Shifts make visitors lose their place and tap the wrong thing — annoying, and it costs orders.",
        benefit: "A calm page, fewer mistaken taps, a better Core Web Vitals assessment.",
        effort: "an hour to a few days: reserve room for images, ads and pop-in blocks",
        who: "a front-end (layout) developer, and whoever embeds the ads",
      },
    },
  },
  tbt: {
    hint: {
      ru: {
        what: "Складывает, насколько каждая длинная задача JavaScript после первой отрисовки главной страницы превысила 50 мс.",
        good: "Суммарная блокировка до 200 мс (оценка 0,9 и выше).",
        bad: "Больше 600 мс — провал; от 200 до 600 мс — предупреждение.",
        glossary: ["TBT (Total Blocking Time) — сколько времени главный поток браузера был занят и не мог ответить на нажатие", "длинная задача — непрерывная работа главного потока дольше 50 мс"],
      },
      en: {
        what: "Adds up by how much each long JavaScript task after the home page's first paint exceeded 50 ms.",
        good: "At most 200 ms of blocking in total (score 0.9 or more).",
        bad: "More than 600 ms fails; between 200 and 600 ms is a warning.",
        glossary: ["TBT (Total Blocking Time) — how long the browser's main thread was too busy to answer a tap", "long task — uninterrupted main-thread work longer than 50 ms"],
      },
    },
    plain: {
      ru: {
        name: "Страница сразу откликается на нажатия",
        what: "Пока страница загружается, скрипты могут надолго занимать браузер, и он не реагирует на касания.",
        why: "Посетитель нажимает на кнопку, а ничего не происходит — он думает, что сайт сломан.",
        benefit: "Кнопки и меню работают с первой секунды, особенно на недорогих телефонах.",
        effort: "от нескольких дней: убрать лишние скрипты, разбить тяжёлые, отложить сторонние виджеты",
        who: "фронтенд-разработчик, который собирает JavaScript сайта",
      },
      en: {
        name: "The page answers taps right away",
        what: "While the page loads, scripts can keep the browser busy for long stretches, and it ignores taps.",
        why: "A visitor taps a button and nothing happens — they think the site is broken.",
        benefit: "Buttons and menus work from the first second, especially on cheap phones.",
        effort: "a few days or more: drop unneeded scripts, split heavy ones, defer third-party widgets",
        who: "the front-end developer who builds the site's JavaScript",
      },
    },
  },
  fcp: {
    hint: {
      ru: {
        what: "Измеряет в браузере, когда на главной странице отрисован первый текст или картинка.",
        good: "Оценка 0,9 и выше по мобильной кривой Lighthouse: примерно до 1,8 с.",
        bad: "Позже 3 с — провал; от 1,8 до 3 с — предупреждение.",
        glossary: ["FCP (First Contentful Paint) — момент, когда вместо белого экрана появляется первое содержимое", "критический CSS — стили первого экрана, встроенные прямо в HTML"],
      },
      en: {
        what: "Measures in the browser when the home page paints its first text or image.",
        good: "A score of 0.9 or more on Lighthouse's mobile curve: about 1.8 s or less.",
        bad: "Later than 3 s fails; between 1.8 and 3 s is a warning.",
        glossary: ["FCP (First Contentful Paint) — when the first content replaces the blank screen", "critical CSS — the first screen's styles inlined into the HTML"],
      },
    },
    plain: {
      ru: {
        name: "Белый экран сменяется содержимым быстро",
        what: "Сколько посетитель смотрит на пустую страницу, прежде чем увидит хоть что-то.",
        why: "Пустой экран выглядит как поломка: многие закрывают вкладку, не дождавшись.",
        benefit: "Посетитель сразу видит, что сайт работает, и остаётся.",
        effort: "от нескольких часов: ускорить ответ сервера, отложить скрипты, встроить критические стили",
        who: "фронтенд-разработчик и администратор сервера",
      },
      en: {
        name: "The blank screen gives way to content quickly",
        what: "How long a visitor stares at an empty page before seeing anything.",
        why: "A blank screen looks broken: many close the tab before it fills.",
        benefit: "Visitors see at once that the site works, and stay.",
        effort: "a few hours or more: a faster server answer, deferred scripts, inlined critical styles",
        who: "a front-end developer and the server's administrator",
      },
    },
  },
};
