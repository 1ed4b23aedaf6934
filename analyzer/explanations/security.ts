// Explanations of the security display group. Pure data.
import type { Explanation } from "./types.ts";

export const SECURITY: Readonly<Record<string, Explanation>> = {
  https_available: {
    hint: {
      ru: {
        what: "Пытается установить TLS-соединение с хостом на порту 443.",
        good: "Рукопожатие проходит (ошибка одного лишь сертификата здесь не считается — её оценивает tls_cert_valid).",
        bad: "TLS-сервер на 443 не отвечает или рукопожатие не удаётся — HTTPS нет, рейтинг ограничен 49.",
        glossary: ["HTTPS — HTTP поверх шифрованного TLS-соединения", "TLS-рукопожатие — начальный обмен, в котором клиент и сервер договариваются о шифровании"],
      },
      en: {
        what: "Tries a TLS connection to the host on port 443.",
        good: "The handshake succeeds (a certificate error alone does not count here; tls_cert_valid judges it).",
        bad: "No TLS server answers on 443 or the handshake fails — there is no HTTPS, and the rank is capped at 49.",
        glossary: ["HTTPS — HTTP over an encrypted TLS connection", "TLS handshake — the opening exchange in which client and server agree on encryption"],
      },
    },
    plain: {
      ru: {
        name: "Сайт работает по HTTPS",
        what: "HTTPS — защищённое соединение, значок замка в адресной строке.",
        why: "Без него браузеры помечают сайт как «Не защищён», а поисковики понижают его в выдаче.",
        benefit: "Посетители доверяют сайту, данные форм защищены, поисковики не понижают сайт.",
        effort: "около часа: выпустить бесплатный сертификат Let's Encrypt и включить HTTPS",
        who: "администратор сервера или панель хостинга",
      },
    },
    guide: null,
  },
  https_redirect: {
    hint: {
      ru: {
        what: "Запрашивает сайт по http:// и смотрит на первый редирект и конечный адрес (закрытый порт 80 не проверяется).",
        good: "Первый же шаг — 301 или 308 на https:// того же хоста (или хоста, с которого отдаётся сайт), цепочка заканчивается на https://.",
        bad: "http:// отдаёт страницу сам, первый редирект не 301/308, ведёт не на https этого хоста или цепочка кончается на http; при работающем HTTPS рейтинг ограничен 79.",
        glossary: ["308 — постоянный редирект, сохраняющий метод запроса", "цепочка редиректов — несколько пересылок подряд до конечного адреса"],
      },
      en: {
        what: "Requests the site over http:// and looks at the first redirect and the final URL (a closed port 80 is not judged).",
        good: "The very first hop is a 301 or 308 to https:// on the same host (or the host the site is served from), and the chain ends on https://.",
        bad: "http:// serves the page itself, the first hop is not 301/308, leads elsewhere, or the chain ends on http; with working HTTPS the rank is capped at 79.",
        glossary: ["308 — a permanent redirect keeping the request method", "redirect chain — several redirects in a row before the final URL"],
      },
    },
    plain: {
      ru: {
        name: "Незащищённый адрес перенаправляет на защищённый",
        what: "Посетитель или старая ссылка могут открыть сайт по адресу без «s» — http://.",
        why: "Без перенаправления человек остаётся на незащищённой версии, а поисковик видит два сайта.",
        benefit: "Все посетители попадают на защищённую версию, дубли пропадают.",
        effort: "минут 15: правило редиректа в конфигурации сервера или панели хостинга",
        who: "администратор веб-сервера или хостинга",
      },
    },
    guide: null,
  },
  tls_cert_valid: {
    hint: {
      ru: {
        what: "Проверяет сертификат, полученный при TLS-рукопожатии: сроки, имя хоста и цепочку доверия.",
        good: "Сертификат уже действует и ещё не истёк, покрывает этот хост и подписан доверенным центром.",
        bad: "Сертификат истёк, ещё не начал действовать, выписан на другое имя или не доверен (самоподписанный, нет промежуточных) — рейтинг ограничен 39.",
        glossary: ["удостоверяющий центр (CA) — организация, подписывающая сертификаты", "промежуточный сертификат — звено цепочки между сертификатом сайта и корневым CA"],
      },
      en: {
        what: "Checks the certificate presented in the TLS handshake: its dates, the host name and the chain of trust.",
        good: "The certificate is in force, covers this host and is signed by a trusted authority.",
        bad: "It has expired, is not yet valid, names another host or is untrusted (self-signed, missing intermediates) — the rank is capped at 39.",
        glossary: ["certificate authority (CA) — an organisation that signs certificates", "intermediate certificate — a link of the chain between the site's certificate and the root CA"],
      },
    },
    plain: {
      ru: {
        name: "Сертификат сайта действителен",
        what: "Сертификат подтверждает браузеру, что сайт настоящий.",
        why: "С недействительным сертификатом браузер показывает страшное предупреждение, и большинство посетителей уходят.",
        benefit: "Сайт открывается без предупреждений у всех посетителей.",
        effort: "полчаса-час: перевыпустить сертификат и установить полную цепочку",
        who: "администратор сервера, управляющий сертификатами",
      },
    },
    guide: null,
  },
  tls_cert_expiry: {
    hint: {
      ru: {
        what: "Считает, сколько дней осталось до окончания срока действия сертификата (истёкший оценивает tls_cert_valid).",
        good: "До окончания больше 21 дня.",
        bad: "21 день и меньше — половинный провал; 7 дней и меньше — провал серьёзного уровня.",
        glossary: ["срок действия — дата notAfter, после которой сертификат недействителен", "ACME — протокол автоматического продления сертификатов (certbot)"],
      },
      en: {
        what: "Counts the days left until the certificate expires (an expired one is judged by tls_cert_valid).",
        good: "More than 21 days are left.",
        bad: "21 days or fewer is a half failure; 7 days or fewer is a failure at the serious level.",
        glossary: ["expiry date — the notAfter date after which the certificate is invalid", "ACME — the protocol for automatic certificate renewal (certbot)"],
      },
    },
    plain: {
      ru: {
        name: "Сертификат скоро не истечёт",
        what: "У сертификата есть срок годности, обычно 90 дней или год.",
        why: "Если его не продлить вовремя, сайт внезапно начнёт пугать посетителей предупреждением браузера.",
        benefit: "Никаких внезапных отказов сайта из-за просроченного сертификата.",
        effort: "минут 30: продлить сейчас и настроить автопродление",
        who: "администратор, отвечающий за продление сертификатов",
      },
    },
    guide: null,
  },
  hsts: {
    hint: {
      ru: {
        what: "Читает заголовок Strict-Transport-Security главной страницы, отданной по HTTPS.",
        good: "Заголовок есть и max-age не меньше 31 536 000 секунд (год); includeSubDomains и preload желательны, но не обязательны.",
        bad: "Заголовка нет — провал; max-age меньше года — половинный провал.",
        glossary: ["HSTS — указание браузеру открывать сайт только по HTTPS", "max-age — сколько секунд браузер помнит это указание"],
      },
      en: {
        what: "Reads the Strict-Transport-Security header of the home page served over HTTPS.",
        good: "The header is present with max-age of at least 31,536,000 seconds (a year); includeSubDomains and preload are advised but not required.",
        bad: "No header is a failure; max-age under a year is a half failure.",
        glossary: ["HSTS — tells the browser to open the site over HTTPS only", "max-age — how many seconds the browser remembers that instruction"],
      },
    },
    plain: {
      ru: {
        name: "Браузеру велено всегда использовать HTTPS",
        what: "Специальный заголовок просит браузер больше никогда не открывать сайт без шифрования.",
        why: "Без него первый заход по http:// можно перехватить в публичной сети Wi-Fi.",
        benefit: "Защита посетителей от подмены сайта в чужих сетях.",
        effort: "минут 10: одна строка заголовка в конфигурации сервера",
        who: "администратор веб-сервера, настраивающий заголовки",
      },
    },
    guide: null,
  },
  mixed_content: {
    hint: {
      ru: {
        what: "Ищет на HTTPS-страницах выборки подключаемые ресурсы по http:// — скрипты, стили, фреймы, картинки.",
        good: "Все ресурсы HTTPS-страниц загружаются по https://.",
        bad: "Хотя бы одна HTTPS-страница подключает ресурс по http://.",
        glossary: ["смешанный контент — http-ресурсы на странице, открытой по https", "подресурс — файл, который страница подгружает: скрипт, стиль, картинка"],
      },
      en: {
        what: "Looks for http:// subresources — scripts, stylesheets, frames, images — on the sampled HTTPS pages.",
        good: "Every resource of the HTTPS pages loads over https://.",
        bad: "At least one HTTPS page includes a resource over http://.",
        glossary: ["mixed content — http resources on a page opened over https", "subresource — a file a page loads: script, stylesheet, image"],
      },
    },
    plain: {
      ru: {
        name: "Защищённые страницы не грузят незащищённые файлы",
        what: "На защищённой странице каждая картинка и каждый скрипт тоже должны идти по защищённому адресу.",
        why: "Браузеры блокируют такие файлы или убирают замок, и страница ломается или выглядит небезопасной.",
        benefit: "Страницы работают целиком и показывают замок в адресной строке.",
        effort: "от часа до дня: заменить http:// на https:// в шаблонах и статьях",
        who: "разработчик и контент-менеджер",
      },
    },
    guide: null,
  },
  security_txt: {
    hint: {
      ru: {
        what: "Запрашивает /.well-known/security.txt.",
        good: "Файл отвечает 200 с типом text/plain и отдаётся по HTTPS.",
        bad: "Файла нет (не 200), или он отдаётся не как text/plain, или по http.",
        glossary: ["security.txt — файл с контактами для сообщений об уязвимостях (RFC 9116)", "/.well-known/ — стандартный каталог служебных файлов сайта"],
      },
      en: {
        what: "Requests /.well-known/security.txt.",
        good: "The file answers 200 as text/plain over HTTPS.",
        bad: "There is no file (not 200), or it is not served as text/plain, or it is served over http.",
        glossary: ["security.txt — a file with contacts for vulnerability reports (RFC 9116)", "/.well-known/ — the standard folder for a site's service files"],
      },
    },
    plain: {
      ru: {
        name: "Опубликованы контакты для сообщений об уязвимостях",
        what: "Небольшой текстовый файл говорит исследователям, куда писать о найденной дыре в защите.",
        why: "Без него о проблеме могут не сообщить вовсе или написать не туда.",
        benefit: "О проблемах безопасности вы узнаёте первыми, а не из новостей.",
        effort: "минут 15: создать текстовый файл с адресом и сроком действия",
        who: "администратор или ответственный за безопасность",
      },
    },
    guide: null,
  },
  insecure_form: {
    hint: {
      ru: {
        what: "Смотрит на формы каждой страницы: куда указывает action и открыта ли сама страница по HTTPS.",
        good: "Нет форм с action на http:// и нет форм на страницах, открытых по HTTP.",
        bad: "Форма отправляет данные на http:// или стоит на незашифрованной странице — браузер предупреждает посетителя.",
        glossary: ["action — адрес, на который форма отправляет введённые данные", "HTTPS — шифрованное соединение между браузером и сайтом"],
      },
      en: {
        what: "Looks at each page's forms: where their action points and whether the page itself is served over HTTPS.",
        good: "No form posts to http:// and no form sits on a page served over HTTP.",
        bad: "A form posts to http:// or sits on an unencrypted page, and the browser warns the visitor.",
        glossary: ["action — the address a form sends what was typed to", "HTTPS — an encrypted connection between browser and site"],
      },
    },
    plain: {
      ru: {
        name: "Формы отправляют данные безопасно",
        what: "Когда посетитель заполняет форму — заявку, вход, подписку — данные уходят на сервер.",
        why: "Без шифрования их можно перехватить, а браузер показывает предупреждение, и люди бросают форму.",
        benefit: "Данные клиентов защищены, заявки не теряются из-за предупреждений.",
        effort: "час: поменять адрес отправки формы на https",
        who: "разработчик, который делал формы сайта",
      },
    },
    guide: null,
  },
};
