// Explanations of the security display group: the response headers and cookies of each page. Pure data.
import type { ExplanationText } from "./types.ts";

export const SECURITY_HEADERS: Readonly<Record<string, ExplanationText>> = {
  csp: {
    hint: {
      ru: {
        what: "Читает заголовок Content-Security-Policy (и <meta http-equiv=\"Content-Security-Policy\">) страниц выборки.",
        good: "Политика есть на каждой странице; если она разрешает 'unsafe-inline' для скриптов без nonce или хэша, это отмечается в деталях, но провалом не считается.",
        bad: "Хотя бы на одной странице политики нет (Content-Security-Policy-Report-Only ничего не запрещает и не засчитывается). Оценка по доле таких страниц.",
        glossary: ["CSP — политика, перечисляющая, откуда странице можно загружать скрипты, стили и другие файлы", "'unsafe-inline' — разрешение встроенных скриптов, ослабляющее защиту от XSS"],
      },
      en: {
        what: "Reads the Content-Security-Policy header (and <meta http-equiv=\"Content-Security-Policy\">) of the sampled pages.",
        good: "Every page has a policy; one that allows 'unsafe-inline' scripts without a nonce or hash is noted in the detail but does not fail.",
        bad: "At least one page has no policy (Content-Security-Policy-Report-Only blocks nothing and does not count). Scored by the share of such pages.",
        glossary: ["CSP — a policy listing where a page may load scripts, styles and other files from", "'unsafe-inline' — permission for inline scripts that weakens the protection against XSS"],
      },
    },
    plain: {
      ru: {
        name: "Политика безопасности содержимого",
        what: "Специальный заголовок говорит браузеру, с каких адресов странице можно загружать скрипты.",
        why: "Без него внедрённый злоумышленником скрипт выполнится и сможет украсть данные посетителей.",
        benefit: "Даже найденная уязвимость XSS не даст запустить чужой код.",
        effort: "от пары часов: составить список источников и проверить его в режиме Report-Only",
        who: "разработчик, знающий все подключаемые скрипты",
      },
    },
  },
  x_content_type_options: {
    hint: {
      ru: {
        what: "Читает заголовок X-Content-Type-Options страниц выборки.",
        good: "Значение nosniff (регистр не важен) на каждой странице.",
        bad: "Заголовка нет или значение другое: браузер может «угадать» тип файла и выполнить загруженный пользователем файл как скрипт. Оценка по доле таких страниц.",
        glossary: ["nosniff — запрет браузеру угадывать тип файла вопреки Content-Type", "MIME-sniffing — угадывание типа содержимого по его первым байтам"],
      },
      en: {
        what: "Reads the X-Content-Type-Options header of the sampled pages.",
        good: "The value is nosniff (in any case) on every page.",
        bad: "The header is missing or says something else: the browser may guess a file's type and run an uploaded file as a script. Scored by the share of such pages.",
        glossary: ["nosniff — forbids the browser to guess a file's type against its Content-Type", "MIME sniffing — guessing a content type from the first bytes of the content"],
      },
    },
    plain: {
      ru: {
        name: "Браузеру запрещено угадывать тип файлов",
        what: "Одна строка в заголовках ответа велит браузеру доверять только объявленному типу файла.",
        why: "Без неё картинка или текст, загруженные злоумышленником, могут выполниться как программа.",
        benefit: "Закрыт простой путь атаки через загружаемые файлы.",
        effort: "минут 5: одна строка в конфигурации сервера",
        who: "администратор веб-сервера (nginx, Apache)",
      },
    },
  },
  frame_ancestors: {
    hint: {
      ru: {
        what: "Читает у страниц выборки директиву frame-ancestors заголовка Content-Security-Policy и заголовок X-Frame-Options.",
        good: "frame-ancestors без * и без «любого https:», либо X-Frame-Options: DENY или SAMEORIGIN (frame-ancestors в <meta> браузеры не исполняют, поэтому он не засчитывается).",
        bad: "Нет ни того ни другого, или стоит frame-ancestors * — любой сайт может встроить страницу во фрейм. Оценка по доле таких страниц.",
        glossary: ["кликджекинг — атака, когда страницу прячут в прозрачный фрейм и заставляют нажимать её кнопки", "X-Frame-Options — старый заголовок запрета встраивания: DENY или SAMEORIGIN"],
      },
      en: {
        what: "Reads the frame-ancestors directive of the Content-Security-Policy header and the X-Frame-Options header of the sampled pages.",
        good: "frame-ancestors without * or a bare https:, or X-Frame-Options: DENY or SAMEORIGIN (browsers ignore frame-ancestors in a <meta> policy, so it does not count).",
        bad: "Neither is present, or frame-ancestors is * — any site may embed the page in a frame. Scored by the share of such pages.",
        glossary: ["clickjacking — hiding a page in a transparent frame to trick people into clicking its buttons", "X-Frame-Options — the older header forbidding embedding: DENY or SAMEORIGIN"],
      },
    },
    plain: {
      ru: {
        name: "Сайт нельзя встроить в чужую страницу",
        what: "Чужой сайт может показать вашу страницу внутри своей так, что посетитель этого не заметит.",
        why: "Так посетителя обманом заставляют нажать кнопку в вашем интерфейсе — например, подтвердить платёж.",
        benefit: "Посетители защищены от кликджекинга.",
        effort: "минут 10: один заголовок в настройках сервера",
        who: "администратор веб-сервера или разработчик",
      },
    },
  },
  referrer_policy: {
    hint: {
      ru: {
        what: "Определяет действующую политику Referrer-Policy страницы: последнее известное значение заголовка, а без заголовка — <meta name=\"referrer\">.",
        good: "Политика задана и не отдаёт полный адрес чужим сайтам: strict-origin-when-cross-origin, same-origin, origin, strict-origin, no-referrer и т. п.",
        bad: "Политики нет, либо это unsafe-url или no-referrer-when-downgrade — полный адрес страницы с параметрами уходит на другие сайты. Оценка по доле таких страниц.",
        glossary: ["Referer — заголовок запроса с адресом страницы, откуда пришёл посетитель", "strict-origin-when-cross-origin — чужим сайтам уходит только домен, своему — полный адрес"],
      },
      en: {
        what: "Works out the page's Referrer-Policy in force: the header's last known value, or <meta name=\"referrer\"> without a header.",
        good: "A policy is set and does not hand full URLs to other sites: strict-origin-when-cross-origin, same-origin, origin, strict-origin, no-referrer and the like.",
        bad: "No policy, or unsafe-url or no-referrer-when-downgrade — the page's full URL with its parameters goes to other sites. Scored by the share of such pages.",
        glossary: ["Referer — the request header carrying the address of the page the visitor came from", "strict-origin-when-cross-origin — other sites get the origin only, your own site the full URL"],
      },
    },
    plain: {
      ru: {
        name: "Адреса страниц не утекают на другие сайты",
        what: "При переходе по ссылке браузер сообщает сайту-получателю, откуда пришёл посетитель.",
        why: "Без ограничений уходит полный адрес, а в нём бывают личные данные: номер заказа, токен, поисковый запрос.",
        benefit: "Данные посетителей не попадают в чужую статистику.",
        effort: "минут 5: один заголовок в конфигурации сервера",
        who: "администратор сервера, отдающего заголовки",
      },
    },
  },
  permissions_policy: {
    hint: {
      ru: {
        what: "Читает заголовок Permissions-Policy (или его прежнее имя Feature-Policy) страниц выборки.",
        good: "Заголовок с непустым значением есть на каждой странице.",
        bad: "Заголовка нет: любой встроенный скрипт или фрейм может запросить камеру, микрофон, геолокацию и другие возможности браузера. Оценка по доле таких страниц.",
        glossary: ["Permissions-Policy — список возможностей браузера, доступных странице и её фреймам", "camera=() — запись, полностью отключающая камеру для страницы"],
      },
      en: {
        what: "Reads the Permissions-Policy header (or its former name, Feature-Policy) of the sampled pages.",
        good: "Every page sends the header with a non-empty value.",
        bad: "No header: any embedded script or frame may ask for the camera, microphone, location and other browser features. Scored by the share of such pages.",
        glossary: ["Permissions-Policy — the list of browser features a page and its frames may use", "camera=() — an entry switching the camera off for the page entirely"],
      },
    },
    plain: {
      ru: {
        name: "Лишние возможности браузера отключены",
        what: "Сайт может заранее сказать браузеру, что ему не нужны камера, микрофон или геолокация.",
        why: "Тогда чужой скрипт или рекламный фрейм на странице не сможет их запросить.",
        benefit: "Меньше тревожных запросов разрешений и поводов для утечек.",
        effort: "минут 10: один заголовок в конфигурации сервера",
        who: "администратор веб-сервера вместе с разработчиком",
      },
    },
  },
  cookie_flags: {
    hint: {
      ru: {
        what: "Разбирает заголовки Set-Cookie страниц, открытых по HTTPS.",
        good: "У каждой cookie есть Secure и SameSite, а у cookie с именами сеанса и входа (sess, sid, auth, token, login, jwt, remember) — ещё и HttpOnly; страницы без cookie и открытые по http:// не оцениваются.",
        bad: "Хотя бы у одной cookie нет Secure или SameSite, или cookie сеанса доступна скриптам (нет HttpOnly). Оценка по доле таких страниц.",
        glossary: ["Secure — флаг cookie: отправлять её только по HTTPS", "HttpOnly — флаг cookie: скрыть её от скриптов страницы, чтобы её нельзя было украсть через XSS"],
      },
      en: {
        what: "Parses the Set-Cookie headers of pages served over HTTPS.",
        good: "Every cookie has Secure and SameSite, and cookies named like sessions or logins (sess, sid, auth, token, login, jwt, remember) also HttpOnly; pages without cookies and pages on http:// are not judged.",
        bad: "At least one cookie lacks Secure or SameSite, or a session cookie is readable by scripts (no HttpOnly). Scored by the share of such pages.",
        glossary: ["Secure — a cookie flag: send it over HTTPS only", "HttpOnly — a cookie flag: hide it from page scripts so XSS cannot steal it"],
      },
    },
    plain: {
      ru: {
        name: "Cookie защищены",
        what: "Cookie хранят, например, вход в личный кабинет, и у них есть флаги защиты.",
        why: "Без флагов cookie можно перехватить в открытой сети или украсть вредным скриптом и войти под чужим именем.",
        benefit: "Учётные записи посетителей защищены от угона.",
        effort: "полчаса: включить флаги в настройках CMS или фреймворка",
        who: "разработчик, отвечающий за вход и сеансы",
      },
    },
  },
  sri_external_scripts: {
    hint: {
      ru: {
        what: "Ищет на страницах <script src> с других сайтов (поддомены своего домена не в счёт) без атрибута integrity.",
        good: "Каждый скрипт с чужого сайта подключён с integrity, или таких скриптов нет.",
        bad: "Хотя бы один чужой скрипт загружается без проверки хэша: взлом его сервера подменит код на вашем сайте. Для скриптов, которые меняются сами (счётчики, менеджеры тегов), integrity неприменим — их риск стоит оценить отдельно. Оценка по доле таких страниц.",
        glossary: ["SRI (Subresource Integrity) — хэш файла в атрибуте integrity: изменённый файл браузер не выполнит", "CDN — сеть серверов, раздающих одни и те же библиотеки многим сайтам"],
      },
      en: {
        what: "Looks for <script src> from other sites (your domain's subdomains do not count) without an integrity attribute.",
        good: "Every script from another site carries integrity, or there is none.",
        bad: "At least one foreign script loads without a hash check: a breach of its server would swap the code running on your site. Scripts that change by design (counters, tag managers) cannot use integrity — weigh their risk separately. Scored by the share of such pages.",
        glossary: ["SRI (Subresource Integrity) — a file hash in the integrity attribute: the browser refuses a changed file", "CDN — a network of servers handing the same libraries to many sites"],
      },
    },
    plain: {
      ru: {
        name: "Чужие скрипты проверяются",
        what: "Сайты часто подключают библиотеки с чужих серверов, и браузер выполняет всё, что те отдают.",
        why: "Если такой сервер взломают, вредный код окажется на вашем сайте; хэш в теге это предотвращает.",
        benefit: "Подмена библиотеки на чужом сервере не затронет ваших посетителей.",
        effort: "час: добавить хэши в теги или перенести библиотеки к себе",
        who: "разработчик, подключавший внешние библиотеки",
      },
    },
  },
};
