// Explanations of the security display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const SECURITY: Readonly<Record<string, ExplanationText>> = {
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
  },
  tls_protocols: {
    hint: {
      ru: {
        what: "Смотрит, какую версию TLS выбрал сервер, когда Svc предложил TLS 1.2 и 1.3, или почему рукопожатие не состоялось.",
        good: "Сервер выбрал TLS 1.3 — лучшую из предложенных версий.",
        bad: "Выбран TLS 1.2 — половинный провал уровня info (TLS 1.3 не включён); сервер не знает ни 1.2, ни 1.3 (ошибка версии протокола) — провал уровня bad. Принимает ли сервер старые TLS 1.0 и 1.1, эта проверка не видит.",
        glossary: ["TLS 1.3 — текущая версия протокола шифрования, быстрее и надёжнее 1.2", "TLS 1.0 и 1.1 — устаревшие версии, которые RFC 8996 запрещает"],
      },
      en: {
        what: "Looks at which TLS version the server chose when Svc offered TLS 1.2 and 1.3, or why the handshake failed.",
        good: "The server picks TLS 1.3, the best of the versions offered.",
        bad: "TLS 1.2 chosen is a half failure at info level (no TLS 1.3); a server that speaks neither 1.2 nor 1.3 (a protocol version error) fails at bad level. Whether the server still accepts TLS 1.0 or 1.1 this check cannot see.",
        glossary: ["TLS 1.3 — the current version of the encryption protocol, faster and safer than 1.2", "TLS 1.0 and 1.1 — outdated versions that RFC 8996 deprecates"],
      },
    },
    plain: {
      ru: {
        name: "Шифрование современной версии",
        what: "TLS — протокол, который шифрует соединение с сайтом; у него есть версии, старые и новые.",
        why: "Старые версии уязвимы и не работают в современных браузерах, а без TLS 1.3 соединение устанавливается медленнее.",
        benefit: "Надёжное и более быстрое защищённое соединение.",
        effort: "минут 15: включить TLS 1.3 в настройках сервера",
        who: "администратор сервера, где настроен TLS",
      },
    },
  },
  http_internal_links: {
    hint: {
      ru: {
        what: "На страницах, открытых по HTTPS, ищет ссылки на свой же сайт, начинающиеся с http://.",
        good: "Все внутренние ссылки ведут на https:// или относительные; страницы, открытые по http://, не оцениваются.",
        bad: "Есть внутренние ссылки на http://: каждый такой переход идёт через незашифрованный запрос и редирект. Оценка по доле таких страниц.",
        glossary: ["незащищённая внутренняя ссылка — ссылка на свой сайт со схемой http://", "относительная ссылка — адрес без схемы и хоста, например /about/"],
      },
      en: {
        what: "On pages served over HTTPS, looks for links to the same site that start with http://.",
        good: "Every internal link is https:// or relative; pages served over http:// are not judged.",
        bad: "Some internal links point to http://: each such click goes through an unencrypted request and a redirect. Scored by the share of such pages.",
        glossary: ["insecure internal link — a link to your own site with the http:// scheme", "relative link — an address without scheme and host, such as /about/"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки на свой сайт защищены",
        what: "Ссылки между страницами сайта должны вести на защищённые адреса https://.",
        why: "Ссылка на http:// заставляет браузер сначала сходить по незащищённому адресу, где запрос можно перехватить или подменить.",
        benefit: "Переходы быстрее и безопаснее, у поисковика нет лишних редиректов.",
        effort: "час: заменить адреса в шаблонах и в текстах страниц",
        who: "разработчик или контент-менеджер",
      },
    },
  },
  security_txt_fields: {
    hint: {
      ru: {
        what: "Читает поля Contact и Expires файла security.txt, отданного по HTTPS как text/plain (подпись PGP не проверяется).",
        good: "Есть хотя бы одна строка Contact: и ровно одна Expires: с датой RFC 3339 в будущем, не дальше чем через год (366 дней).",
        bad: "Нет Contact, нет Expires или их несколько, дата не в формате RFC 3339 или уже прошла — провал; дата дальше года — половинный провал. Без файла проверка не применяется: это находка security_txt.",
        glossary: ["Contact — поле security.txt с адресом для сообщений об уязвимостях (mailto: или https:)", "Expires — дата, после которой содержимое security.txt считается устаревшим"],
      },
      en: {
        what: "Reads the Contact and Expires fields of a security.txt served over HTTPS as text/plain (a PGP signature is not verified).",
        good: "At least one Contact: line and exactly one Expires: line with an RFC 3339 date in the future, at most a year (366 days) ahead.",
        bad: "No Contact, no Expires or several, a date not in RFC 3339 form or already past fails; a date more than a year ahead is a half failure. Without the file the check does not apply: security_txt reports it.",
        glossary: ["Contact — the security.txt field with an address for vulnerability reports (mailto: or https:)", "Expires — the date after which security.txt's content counts as stale"],
      },
    },
    plain: {
      ru: {
        name: "В security.txt есть контакт и срок",
        what: "Файл security.txt говорит исследователям, куда сообщать об уязвимостях и до какого числа эти сведения верны.",
        why: "Без контакта сообщение некуда отправить, а просроченный файл исследователи считают заброшенным.",
        benefit: "Об уязвимости вы узнаете от исследователя, а не от злоумышленника.",
        effort: "минут 10: дописать две строки и поставить напоминание о продлении",
        who: "администратор сайта или специалист по безопасности",
      },
    },
  },
  version_disclosure: {
    hint: {
      ru: {
        what: "Читает заголовки Server, X-Powered-By, X-AspNet-Version и X-AspNetMvc-Version в ответе главной страницы.",
        good: "В Server и X-Powered-By нет номера версии (просто «nginx» допустимо), заголовков X-AspNet-Version и X-AspNetMvc-Version нет.",
        bad: "Заголовок называет версию программы (nginx/1.25.3, PHP/8.2.1, Microsoft-IIS/10.0) или есть X-AspNet-Version: злоумышленнику проще подобрать известную уязвимость.",
        glossary: ["Server — заголовок ответа с названием программы веб-сервера", "server_tokens off — настройка nginx, убирающая версию из заголовков и страниц ошибок"],
      },
      en: {
        what: "Reads the Server, X-Powered-By, X-AspNet-Version and X-AspNetMvc-Version headers of the home page's response.",
        good: "Server and X-Powered-By carry no version number (plain \"nginx\" is fine), and there is no X-AspNet-Version or X-AspNetMvc-Version header.",
        bad: "A header names a software version (nginx/1.25.3, PHP/8.2.1, Microsoft-IIS/10.0) or X-AspNet-Version is sent: attackers find a matching known exploit faster.",
        glossary: ["Server — the response header naming the web server software", "server_tokens off — the nginx setting that removes the version from headers and error pages"],
      },
    },
    plain: {
      ru: {
        name: "Сервер не называет свои версии",
        what: "Сервер в каждом ответе может сообщать, какие программы и каких версий на нём работают.",
        why: "Зная точную версию, злоумышленник сразу находит подходящие уязвимости.",
        benefit: "Сайт реже становится мишенью автоматических атак.",
        effort: "минут 10: выключить вывод версий в настройках веб-сервера и PHP",
        who: "администратор сервера",
      },
    },
  },
};
