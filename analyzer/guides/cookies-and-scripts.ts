// Guide: cookies and third-party scripts (cookie_flags, sri_external_scripts). Pure data.
import type { Guide } from "./types.ts";

export const COOKIES_AND_SCRIPTS: Guide = {
  id: "cookies-and-scripts",
  title: "Cookie и сторонние скрипты",
  intro:
    "Две проверки о том, чему браузер посетителя доверяет от имени вашего сайта: cookie, в которых лежат сессии входа, и скрипты, загружаемые с чужих серверов. " +
    "И то и другое — частая цель атак: украденный cookie сессии даёт доступ к аккаунту, подменённый скрипт на CDN — ко всем посетителям сразу. " +
    "Svc смотрит на каждую HTML-страницу выборки, главная весит втрое больше остальных; обе проверки — уровня info.",
  sections: [
    {
      code: "cookie_flags",
      heading: "Cookie защищены флагами Secure, SameSite и HttpOnly",
      problem:
        "Без флага `Secure` браузер может отправить cookie по незащищённому http://, где его перехватят. Без `SameSite` cookie уходит и с запросами, которые инициировал чужой сайт, — " +
        "на этом строятся атаки CSRF. Без `HttpOnly` cookie сессии доступен скриптам страницы, и при XSS его украдут одной строкой кода. " +
        "Многие браузеры считают cookie без SameSite как `Lax`, но рассчитывать на поведение по умолчанию не стоит.",
      rule:
        "Svc читает заголовки `Set-Cookie` HTML-страниц выборки, отданных по https://; страницы без cookie и страницы по http:// не оцениваются. Каждый cookie должен иметь `Secure` и `SameSite`, " +
        "а cookie, в имени которого есть `sess`, `sid`, `auth`, `token`, `login`, `jwt` или `remember` (так Svc угадывает cookie сессии), — ещё и `HttpOnly`. " +
        "Хотя бы один cookie без нужного флага — провал страницы; в деталях имена и недостающие флаги. Cookie, которые ставят скрипты в браузере, Svc не видит.",
      fix:
        "Задайте флаги там, где cookie создаются: в настройках сессий фреймворка или интерпретатора, в коде, который вызывает установку cookie. " +
        "Для cookie, которые читает JavaScript (например, согласие на cookie), `HttpOnly` не ставьте — но и не называйте их так, будто это сессия. " +
        "Если приложение за прокси менять нельзя, nginx 1.19.3 и новее умеет дописывать флаги сам.",
      examples: [
        {
          caption: "заголовок ответа с правильными флагами",
          code: String.raw`Set-Cookie: session_id=abc123; Path=/; Secure; HttpOnly; SameSite=Lax`,
        },
        {
          caption: "php.ini",
          code: String.raw`session.cookie_secure = 1
session.cookie_httponly = 1
session.cookie_samesite = "Lax"`,
        },
        {
          caption: "nginx перед приложением: Secure и SameSite для всех cookie",
          code: String.raw`proxy_cookie_flags ~ secure samesite=lax;`,
        },
      ],
      verify:
        "В инструментах разработчика на вкладке Application → Cookies у каждого cookie видны столбцы Secure, HttpOnly и SameSite. Из командной строки: " +
        "`curl -sI https://example.com/ | grep -i set-cookie`. Повторная проверка Svc пройдёт, когда все cookie страниц выборки получат нужные флаги.",
    },
    {
      code: "sri_external_scripts",
      heading: "Скрипты с чужих сайтов проверяются по хешу (SRI)",
      problem:
        "Скрипт, подключённый с чужого сервера — библиотека с CDN, виджет, — выполняется на вашей странице со всеми её правами. Если этот сервер взломают или файл подменят, " +
        "вредоносный код получат все ваши посетители; так уже случалось с популярными CDN. Атрибут `integrity` с хешем файла заставляет браузер проверить, " +
        "что загружен ровно тот файл, который вы подключали, и не выполнять изменённый.",
      rule:
        "Svc собирает на HTML-страницах выборки теги `<script src>` без атрибута `integrity`, загружаемые с хостов вне зарегистрированного домена сайта (поддомены вроде static.example.com " +
        "считаются своими), — до 20 на страницу. Хотя бы один такой скрипт — провал страницы; в деталях их число и первый адрес. " +
        "Оценка по доле таких страниц, где главная весит 3, остальные по 1.",
      fix:
        "Для файлов с зафиксированной версией (`jquery@3.7.1`, а не «последняя») добавьте `integrity` с хешем SHA-384 и `crossorigin=\"anonymous\"`; CDN часто показывают готовый тег с хешем. " +
        "Скрипты, которые меняются по замыслу (счётчики, менеджеры тегов, загрузчики чатов), хешем закрепить нельзя: либо размещайте копию у себя, либо примите риск " +
        "и переведите задачу в статус ignored.",
      examples: [
        {
          caption: "shell: хеш файла для атрибута integrity",
          code: String.raw`curl -s https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js \
  | openssl dgst -sha384 -binary | openssl base64 -A`,
        },
        {
          caption: "HTML",
          code: String.raw`<script src="https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js"
        integrity="sha384-(результат команды выше)"
        crossorigin="anonymous"></script>`,
        },
      ],
      verify:
        "Откройте страницу с консолью разработчика: ошибок о несовпадении integrity быть не должно, а скрипт должен работать. Код " +
        "`[...document.scripts].filter((s) => s.src && !s.integrity && new URL(s.src).hostname !== location.hostname).map((s) => s.src)` в консоли покажет " +
        "оставшиеся сторонние скрипты без хеша.",
    },
  ],
};
