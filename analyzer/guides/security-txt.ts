// Guide: security.txt (security_txt, security_txt_fields). Pure data.
import type { Guide } from "./types.ts";

export const SECURITY_TXT: Guide = {
  id: "security-txt",
  title: "Файл security.txt",
  intro:
    "security.txt (RFC 9116) — небольшой текстовый файл по адресу /.well-known/security.txt, где сказано, как сообщить владельцу сайта об уязвимости. " +
    "Его читают исследователи безопасности и автоматические сканеры; с ним сообщение о найденной проблеме приходит тому, кто может её исправить, а не теряется в общей поддержке. " +
    "Обе проверки этого руководства — уровня info, и их семейство security_txt можно исключить в профиле сайта, если файл сайту не нужен.",
  sections: [
    {
      code: "security_txt",
      heading: "Опубликован security.txt",
      problem:
        "Когда исследователь находит уязвимость на сайте, ему нужно понять, кому о ней сообщить. Без явного контакта он пишет в общую поддержку, где письмо теряется, " +
        "публикует находку открыто или вовсе молчит — и вы узнаёте о проблеме последним. Файл security.txt — общепринятое место, где указан контакт для таких сообщений " +
        "и, при желании, политика раскрытия и язык, на котором вам удобно получать письма.",
      rule:
        "Svc запрашивает `/.well-known/security.txt`. Зачёт — итоговый ответ 200 с типом содержимого `text/plain` (параметр charset допустим), а итоговый адрес начинается с https://. " +
        "Ответ 200 с другим типом (например, страница HTML, которую CMS отдаёт на любой адрес) или по http:// — провал; любой другой статус или отсутствие ответа — тоже провал, " +
        "в деталях статус. Уровень info.",
      fix:
        "Создайте файл в каталоге `.well-known` в корне сайта, как минимум с полями `Contact` и `Expires`, и убедитесь, что веб-сервер отдаёт его как `text/plain` по HTTPS. " +
        "Контактом может быть адрес почты (`mailto:`), форма на сайте (`https:`) или телефон (`tel:`). Если сайт на CMS, проверьте, что её правила маршрутизации не перехватывают путь `/.well-known/`.",
      examples: [
        {
          caption: "/.well-known/security.txt",
          code: String.raw`Contact: mailto:security@example.com
Contact: https://example.com/security/report
Expires: 2026-12-31T23:59:59Z
Preferred-Languages: ru, en
Canonical: https://example.com/.well-known/security.txt
Policy: https://example.com/security/policy`,
        },
        {
          caption: "nginx: статический файл мимо CMS",
          code: String.raw`location = /.well-known/security.txt {
    root /var/www/example;   # файл: /var/www/example/.well-known/security.txt
    charset utf-8;
}`,
        },
      ],
      verify:
        "Выполните `curl -sI https://example.com/.well-known/security.txt`: статус 200 и `Content-Type: text/plain`. Откройте файл в браузере и проверьте, что это текст, а не страница сайта. " +
        "Повторная проверка Svc пройдёт, и следом начнёт применяться security_txt_fields.",
    },
    {
      code: "security_txt_fields",
      heading: "В security.txt есть Contact и действующая дата Expires",
      problem:
        "security.txt без контакта бесполезен, а с прошедшей датой — вреден: RFC 9116 требует считать такой файл устаревшим, и исследователь не может быть уверен, что контакт ещё работает. " +
        "Поле Expires обязательно именно затем, чтобы заброшенные файлы не вводили в заблуждение. Его нужно продлевать так же регулярно, как сертификат, — лучше автоматически.",
      rule:
        "Проверка применяется, когда файл отдан с кодом 200 как text/plain по HTTPS. Провал уровня info: нет ни одной строки `Contact:`; нет строки `Expires:`; строк `Expires:` больше одной; " +
        "дата не в формате RFC 3339 (например, `2026-12-31T23:59:59Z`); дата уже прошла. Дата дальше 366 дней вперёд — половинный провал: RFC 9116 советует меньше года. " +
        "Иначе зачёт, в деталях число контактов и сколько дней осталось. Файл, подписанный PGP (clear-signed), читается между заголовком и подписью.",
      fix:
        "Добавьте недостающие поля. Дату пишите полностью, с временем и часовым поясом, а не как `31.12.2026`, и выбирайте её меньше чем через год. " +
        "Чтобы не забывать продлевать, обновляйте Expires при каждой выкладке сайта или по расписанию.",
      examples: [
        {
          caption: "shell: Expires на 300 дней вперёд при каждой выкладке (GNU date)",
          code: String.raw`sed -i "s/^Expires: .*/Expires: $(date -u -d '+300 days' +%Y-%m-%dT%H:%M:%SZ)/" \
  /var/www/example/.well-known/security.txt`,
        },
      ],
      verify:
        "Выполните `curl -s https://example.com/.well-known/security.txt | grep -iE '^(contact|expires):'`: хотя бы одна строка Contact и ровно одна Expires с будущей датой. " +
        "Повторная проверка Svc покажет в деталях, через сколько дней файл устареет.",
    },
  ],
};
