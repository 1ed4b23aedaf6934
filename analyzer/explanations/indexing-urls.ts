// Explanations of the indexing display group: what a page's URL and status say. Pure data.
import type { ExplanationText } from "./types.ts";

export const INDEXING_URLS: Readonly<Record<string, ExplanationText>> = {
  soft_404: {
    hint: {
      ru: {
        what: "Читает <title> и первый <h1> страниц, ответивших 200, и ищет признаки страницы ошибки: «404…», «Page not found», «Страница не найдена», «Страница не существует».",
        good: "Ни одна страница с ответом 200 не называет себя страницей ошибки (статья об ошибках 404 не в счёт: ищутся заголовки, которые начинаются с «404» или говорят «страница не найдена»).",
        bad: "Страница отвечает 200, но её заголовок говорит, что страница не найдена: поисковик может проиндексировать ошибку как обычную страницу. Оценка по доле таких страниц.",
        glossary: ["ложная 404 — страница «не найдено», отданная со статусом 200", "статус 410 — «удалено навсегда», сигнал убрать адрес из поиска"],
      },
      en: {
        what: "Reads the <title> and first <h1> of pages answering 200 and looks for the marks of an error page: \"404…\", \"Page not found\", \"page does not exist\" and their Russian equivalents.",
        good: "No page answering 200 calls itself an error page (an article about 404 errors does not count: only headings that start with \"404\" or say \"page not found\" do).",
        bad: "A page answers 200 but its heading says it was not found: search engines may index the error as a normal page. Scored by the share of such pages.",
        glossary: ["soft 404 page — an error page the server sends with status 200", "status 410 — \"gone for good\", a signal to drop the URL from search"],
      },
    },
    plain: {
      ru: {
        name: "Страницы ошибок отвечают кодом 404",
        what: "Когда страницы нет, сервер должен не только показать «не найдено», но и сообщить об этом кодом 404.",
        why: "Если такая страница отвечает «всё в порядке», поисковик может добавить её в выдачу и тратить на неё время.",
        benefit: "В поиске нет пустых страниц с ошибкой, робот обходит полезные страницы.",
        effort: "час: исправить код ответа в шаблоне страницы ошибки",
        who: "разработчик сайта или CMS",
      },
    },
  },
  url_hygiene: {
    hint: {
      ru: {
        what: "Смотрит на адреса страниц выборки: путь и длину всего URL.",
        good: "Путь в нижнем регистре, без подчёркиваний, пробелов (%20) и двойных слешей, весь адрес не длиннее 115 символов (порог Screaming Frog); закодированная кириллица (%D0%…) заглавными буквами не считается. Заглавные буквы и подчёркивания, которые есть на каждой странице выборки ниже корня (схема сайта, как /wiki/Main_Page в MediaWiki), не считаются.",
        bad: "В пути есть заглавные буквы, подчёркивания, пробелы или двойной слеш, либо адрес длиннее 115 символов. Оценка по доле таких страниц.",
        glossary: ["ЧПУ — человекопонятный URL из слов через дефис", "регистр в адресе — для сервера /Page и /page два разных адреса"],
      },
      en: {
        what: "Looks at the sampled pages' URLs: the path and the length of the whole URL.",
        good: "The path is lower case, without underscores, spaces (%20) or double slashes, and the whole URL is at most 115 characters (Screaming Frog's threshold); percent-encoded letters (%D0%…) do not count as uppercase. Uppercase letters and underscores found on every sampled page below the root (the site's scheme, as MediaWiki's /wiki/Main_Page) do not count.",
        bad: "The path has uppercase letters, underscores, spaces or a double slash, or the URL is longer than 115 characters. Scored by the share of such pages.",
        glossary: ["readable URL — a path made of words joined by hyphens", "case in a URL — to a server /Page and /page are two different addresses"],
      },
    },
    plain: {
      ru: {
        name: "Аккуратные адреса страниц",
        what: "Адрес страницы видят в выдаче и в ссылках, поэтому он должен быть коротким и понятным.",
        why: "Заглавные буквы и подчёркивания порождают дубли и ошибки при наборе, а длинные адреса обрезаются в выдаче.",
        benefit: "Адреса легко читать, запоминать и пересылать, дублей меньше.",
        effort: "от дня: сменить схему адресов и настроить 301-редиректы со старых",
        who: "разработчик сайта вместе с SEO-специалистом",
      },
    },
  },
};
