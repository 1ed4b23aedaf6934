// Explanations of the performance display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const PERFORMANCE: Readonly<Record<string, ExplanationText>> = {
  render_blocking: {
    hint: {
      ru: {
        what: "Считает в <head> страниц выборки блокирующие отрисовку скрипты и таблицы стилей.",
        good: "Нет ни одного блокирующего скрипта, и блокирующих таблиц стилей не больше двух.",
        bad: "Есть скрипт без defer/async/type=module или больше двух блокирующих таблиц стилей.",
        glossary: ["блокирующий ресурс — файл, без загрузки которого браузер не начнёт рисовать страницу", "defer — атрибут, откладывающий выполнение скрипта до разбора HTML"],
      },
      en: {
        what: "Counts render-blocking scripts and stylesheets in the <head> of the sampled pages.",
        good: "No blocking script, and at most two blocking stylesheets.",
        bad: "A script without defer/async/type=module, or more than two blocking stylesheets.",
        glossary: ["render-blocking resource — a file the browser must load before it paints anything", "defer — a script attribute postponing execution until the HTML is parsed"],
      },
    },
    plain: {
      ru: {
        name: "Ничто не задерживает показ страницы",
        what: "Некоторые файлы браузер обязан скачать, прежде чем показать хоть что-то.",
        why: "Чем их больше, тем дольше посетитель смотрит на пустой экран.",
        benefit: "Содержимое страницы появляется на экране раньше.",
        effort: "несколько часов: перенастроить подключение скриптов и стилей",
        who: "фронтенд-разработчик, отвечающий за сборку",
      },
    },
  },
  image_dimensions: {
    hint: {
      ru: {
        what: "Проверяет у каждого <img> страниц выборки атрибуты width и height (страницы без картинок пропускаются).",
        good: "У всех картинок заданы положительные width и height.",
        bad: "Хотя бы у одной картинки нет ширины или высоты.",
        glossary: ["сдвиг макета (CLS) — прыжки содержимого во время загрузки страницы", "aspect-ratio — CSS-свойство, резервирующее место под картинку"],
      },
      en: {
        what: "Checks width and height attributes on every <img> of the sampled pages (pages without images are skipped).",
        good: "Every image has a positive width and height.",
        bad: "At least one image lacks a width or a height.",
        glossary: ["layout shift (CLS) — content jumping while the page loads", "aspect-ratio — a CSS property reserving space for an image"],
      },
    },
    plain: {
      ru: {
        name: "У картинок указаны размеры",
        what: "Браузеру заранее нужно знать размер картинки, чтобы оставить под неё место.",
        why: "Иначе текст прыгает при загрузке картинок, и посетитель промахивается мимо кнопок.",
        benefit: "Страница не дёргается при загрузке, растут оценки Core Web Vitals.",
        effort: "от часа до дня: добавить размеры в шаблоны и редактор",
        who: "верстальщик или контент-менеджер, вставляющий картинки",
      },
    },
  },
  document_redirects: {
    hint: {
      ru: {
        what: "Смотрит, приходили ли страницы выборки через редирект внутри того же origin (схема + хост + порт).",
        good: "Все страницы отвечают 2xx сразу, без промежуточного редиректа внутри сайта.",
        bad: "Хотя бы одна страница открылась через редирект (например, без завершающего слеша → со слешем).",
        glossary: ["редирект — ответ сервера «страница переехала, идите туда»", "origin — схема, хост и порт адреса (https://example.com)"],
      },
      en: {
        what: "Checks whether the sampled pages were reached through a redirect within the same origin (scheme + host + port).",
        good: "Every page answers 2xx directly, without an intermediate redirect inside the site.",
        bad: "At least one page was reached through a redirect (for example, missing trailing slash → with slash).",
        glossary: ["redirect — the server's \"this page moved, go there\" answer", "origin — the scheme, host and port of a URL (https://example.com)"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки ведут сразу на нужные адреса",
        what: "Иногда ссылка на сайте ведёт на старый адрес, и сервер пересылает посетителя дальше.",
        why: "Каждая пересылка — лишний запрос к серверу и задержка при открытии страницы.",
        benefit: "Страницы открываются на один запрос быстрее.",
        effort: "пару часов: заменить ссылки в меню и шаблонах на конечные адреса",
        who: "разработчик или контент-менеджер, правящий ссылки",
      },
    },
  },
};
