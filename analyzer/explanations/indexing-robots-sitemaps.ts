// Explanations of the indexing display group: where robots.txt and the sitemap must agree. Pure data.
import type { ExplanationText } from "./types.ts";

export const INDEXING_ROBOTS_SITEMAPS: Readonly<Record<string, ExplanationText>> = {
  robots_blocks_assets: {
    hint: {
      ru: {
        what: "Сверяет скрипты и стили главной страницы, лежащие на том же хосте, с правилами robots.txt для Googlebot и Yandex.",
        good: "Ни один файл CSS или JavaScript главной не попадает под Disallow (или более длинное правило Allow снова открывает его).",
        bad: "Хотя бы один скрипт или стиль запрещён для Googlebot или Yandex: робот видит страницу без оформления и части содержимого. Если robots.txt закрывает весь сайт, проверка не применяется — это находка robots_blocks_all.",
        glossary: ["рендеринг — построение страницы из HTML, стилей и скриптов, как это делают браузер и поисковый робот", "правило Allow — строка robots.txt, открывающая путь внутри закрытой папки"],
      },
      en: {
        what: "Compares the home page's scripts and stylesheets on its own host with the robots.txt rules for Googlebot and Yandex.",
        good: "No CSS or JavaScript file of the home page falls under a Disallow (or a longer Allow rule re-opens it).",
        bad: "At least one script or stylesheet is disallowed for Googlebot or Yandex: the crawler sees the page without its layout and part of its content. When robots.txt closes the whole site the check does not apply — that is robots_blocks_all's finding.",
        glossary: ["rendering — building a page from its HTML, styles and scripts, as browsers and search crawlers do", "Allow rule — a robots.txt line that re-opens a path inside a disallowed folder"],
      },
    },
    plain: {
      ru: {
        name: "Поисковики видят оформление сайта",
        what: "Чтобы понять страницу, Google и Яндекс загружают её стили и скрипты так же, как браузер.",
        why: "Если robots.txt запрещает эти файлы, робот видит голую или пустую страницу и может счесть её неудобной для телефонов.",
        benefit: "Поисковик оценивает страницу такой, какой её видят посетители.",
        effort: "минут 10: снять в robots.txt запрет с папки стилей и скриптов",
        who: "разработчик или SEO-специалист, ведущий robots.txt",
      },
    },
  },
  sitemap_in_robots: {
    hint: {
      ru: {
        what: "Ищет в robots.txt строки Sitemap: с адресом карты сайта.",
        good: "В robots.txt есть хотя бы одна строка Sitemap:.",
        bad: "Строки Sitemap: нет, хотя карта сайта нашлась по обычному адресу (/sitemap.xml). Если карты нет вовсе или нет самого robots.txt, проверка не применяется: это находки sitemap_present и robots_txt_fetch.",
        glossary: ["строка Sitemap — директива robots.txt, сообщающая любому роботу адрес карты сайта", "обычный адрес карты — /sitemap.xml в корне сайта, где роботы ищут её наугад"],
      },
      en: {
        what: "Looks for Sitemap: lines with the sitemap's address in robots.txt.",
        good: "robots.txt has at least one Sitemap: line.",
        bad: "There is no Sitemap: line although a sitemap was found at its usual address (/sitemap.xml). Without any sitemap, or without robots.txt itself, the check does not apply: those are sitemap_present's and robots_txt_fetch's findings.",
        glossary: ["Sitemap line — a robots.txt directive telling every crawler where the sitemap is", "usual sitemap address — /sitemap.xml at the site root, where crawlers guess it lives"],
      },
    },
    plain: {
      ru: {
        name: "Карта сайта указана в robots.txt",
        what: "Карта сайта — список страниц для поисковиков, а robots.txt может подсказать, где она лежит.",
        why: "Не все роботы ищут карту по стандартному адресу: без подсказки часть из них её не найдёт.",
        benefit: "Все поисковики быстрее узнают о новых и изменённых страницах.",
        effort: "минута: дописать одну строку в robots.txt",
        who: "тот, кто правит robots.txt: разработчик или SEO-специалист",
      },
    },
  },
  sitemap_blocked_urls: {
    hint: {
      ru: {
        what: "Проверяет адреса из карты сайта (до 50 из каждого файла, только этого сайта) по правилам robots.txt для Googlebot и Yandex.",
        good: "Ни один адрес из карты не запрещён в robots.txt.",
        bad: "Часть адресов карты запрещена: оценка 0,9 × (1 − доля запрещённых). Если robots.txt закрывает весь сайт, проверка не применяется (это находка robots_blocks_all).",
        glossary: ["противоречивый сигнал — карта сайта зовёт робота на страницу, а robots.txt запрещает её читать", "доля запрещённых — число запрещённых адресов, делённое на число проверенных адресов карты"],
      },
      en: {
        what: "Checks the sitemap's URLs (up to 50 per file, this site's only) against the robots.txt rules for Googlebot and Yandex.",
        good: "No sitemap URL is disallowed in robots.txt.",
        bad: "Some sitemap URLs are disallowed: the score is 0.9 × (1 − disallowed share). When robots.txt closes the whole site the check does not apply (robots_blocks_all reports it).",
        glossary: ["mixed signal — the sitemap invites the crawler to a page that robots.txt forbids it to read", "disallowed share — the disallowed URLs divided by all sitemap URLs checked"],
      },
    },
    plain: {
      ru: {
        name: "Карта сайта и robots.txt не спорят",
        what: "Карта сайта приглашает поисковик на страницы, а robots.txt может запретить ему туда заходить.",
        why: "Получив противоречивые указания, поисковик тратит время впустую, а страницы не попадают в поиск.",
        benefit: "Поисковики индексируют именно то, что вы им предлагаете.",
        effort: "полчаса: убрать закрытые адреса из карты или снять лишний запрет",
        who: "SEO-специалист вместе с разработчиком",
      },
    },
  },
  sitemap_non_canonical: {
    hint: {
      ru: {
        what: "Для страниц выборки, которые перечислены в карте сайта, сравнивает их адрес с rel=canonical.",
        good: "Canonical такой страницы указывает на неё саму или отсутствует (тогда страница каноническая сама по себе); страницы не из карты не оцениваются.",
        bad: "Страница из карты называет основной другую страницу: в карте лежит копия вместо основного адреса. Оценка по доле таких страниц.",
        glossary: ["основной адрес — адрес, который страница называет главным среди своих копий", "копия страницы — та же страница под другим адресом: с параметрами, другим слешем и т. п."],
      },
      en: {
        what: "For sampled pages the sitemap lists, compares their URL with their rel=canonical.",
        good: "Such a page's canonical points to itself or is absent (the page is then its own canonical); pages outside the sitemap are not judged.",
        bad: "A page listed in the sitemap names another page as the main one: the sitemap holds a copy instead of the main URL. Scored by the share of such pages.",
        glossary: ["main URL — the address a page names as the principal one among its copies", "page copy — the same page at another URL: with parameters, another slash and the like"],
      },
    },
    plain: {
      ru: {
        name: "В карте сайта только основные адреса",
        what: "Карта сайта должна перечислять основные версии страниц, а не их копии.",
        why: "Когда в карте адрес, который сама страница считает копией, поисковик получает противоречие и может выбрать не тот адрес.",
        benefit: "В поиске показываются те адреса, которые вы выбрали основными.",
        effort: "час: настроить генератор карты сайта",
        who: "разработчик, отвечающий за карту сайта",
      },
    },
  },
};
