// Explanations of the mobile display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const MOBILE: Readonly<Record<string, ExplanationText>> = {
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
  },
  pwa_manifest: {
    hint: {
      ru: {
        what: "Ищет на главной <link rel=\"manifest\">, загружает манифест (один запрос) и читает его поля.",
        good: "Манифест отвечает 200, это JSON-объект с name или short_name, start_url и display — standalone, fullscreen или minimal-ui.",
        bad: "Ссылки на манифест нет, он не отвечает 200, это не JSON-объект или в нём нет нужных полей (display: browser не открывает сайт как приложение).",
        glossary: ["манифест веб-приложения — JSON-файл с именем, иконками и режимом запуска сайта как приложения", "display: standalone — запуск в отдельном окне без адресной строки"],
      },
      en: {
        what: "Looks for <link rel=\"manifest\"> on the home page, fetches the manifest (one request) and reads its members.",
        good: "The manifest answers 200 and is a JSON object with name or short_name, start_url, and display standalone, fullscreen or minimal-ui.",
        bad: "No manifest link, no 200 answer, not a JSON object, or members missing (display: browser does not open the site as an app).",
        glossary: ["web app manifest — a JSON file with the name, icons and launch mode of a site as an app", "display: standalone — launching in a window of its own without the address bar"],
      },
    },
    plain: {
      ru: {
        name: "Сайт можно установить как приложение",
        what: "Манифест позволяет добавить сайт на главный экран телефона и открывать его как приложение.",
        why: "Без манифеста браузер не предложит установку, а ярлык будет обычной закладкой.",
        benefit: "Посетители возвращаются одним касанием значка.",
        effort: "час: создать файл манифеста и сослаться на него с главной",
        who: "фронтенд-разработчик или веб-мастер",
      },
    },
  },
  pwa_icons: {
    hint: {
      ru: {
        what: "Читает список icons манифеста и ищет на главной <link rel=\"apple-touch-icon\">; без читаемого манифеста не применяется.",
        good: "Есть PNG-иконки не меньше 192×192 и 512×512 (тип image/png или файл .png; считается меньшая сторона) и ссылка apple-touch-icon.",
        bad: "Нет PNG-иконки нужного размера или нет apple-touch-icon: на главном экране и заставке окажется размытый или случайный значок.",
        glossary: ["apple-touch-icon — значок сайта для главного экрана iPhone и iPad", "заставка (splash screen) — экран запуска приложения, которому нужна иконка 512 px"],
      },
      en: {
        what: "Reads the manifest's icons list and looks for <link rel=\"apple-touch-icon\"> on the home page; without a readable manifest it does not apply.",
        good: "PNG icons of at least 192×192 and 512×512 (type image/png or a .png file; the shorter side counts) and an apple-touch-icon link.",
        bad: "No PNG icon of a needed size, or no apple-touch-icon: the home screen and splash screen get a blurry or arbitrary icon.",
        glossary: ["apple-touch-icon — the site icon for the iPhone and iPad home screen", "splash screen — the app's launch screen, which needs a 512 px icon"],
      },
    },
    plain: {
      ru: {
        name: "Иконки для главного экрана",
        what: "Установленному сайту нужны значки разных размеров: для экрана телефона и для заставки.",
        why: "Без них система берёт уменьшенный снимок страницы или размытую картинку.",
        benefit: "Аккуратный фирменный значок на телефонах посетителей.",
        effort: "час: подготовить два PNG и прописать их в манифесте",
        who: "дизайнер значков и разработчик",
      },
    },
  },
};
