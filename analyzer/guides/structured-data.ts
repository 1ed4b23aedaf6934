// Guide: structured data (jsonld_syntax, schema_required, schema_core_types, schema_breadcrumbs). Pure data.
import type { Guide } from "./types.ts";

export const STRUCTURED_DATA: Guide = {
  id: "structured-data",
  title: "Структурированные данные (JSON-LD и schema.org)",
  intro:
    "Структурированные данные описывают страницу на языке словаря schema.org: это товар с ценой, статья с автором, организация с логотипом, путь по разделам сайта. " +
    "Поисковики строят по ним расширенные сниппеты и узнают название сайта и сведения о компании. Svc читает блоки JSON-LD (`<script type=\"application/ld+json\">`), " +
    "а типы — ещё и из микроданных (`itemtype`). Все проверки этого руководства, кроме синтаксиса, информационные; их семейство schema можно исключить в профиле сайта.",
  sections: [
    {
      code: "jsonld_syntax",
      heading: "Разметка JSON-LD корректна",
      problem:
        "Одна лишняя запятая или незакрытая кавычка делает весь блок JSON-LD нечитаемым, и поисковик молча пропускает его — вместе со всеми расширенными сниппетами, " +
        "которые он мог дать. Блок без `@context` со ссылкой на schema.org или без `@type` формально читается, но смысла не имеет. " +
        "Чаще всего ошибки появляются, когда JSON собирают склейкой строк в шаблоне, а не функцией сериализации.",
      rule:
        "Для HTML-страниц выборки с блоками JSON-LD Svc разбирает каждый блок. Провал страницы: блок не разбирается как JSON; корневое значение или элемент корневого массива — не объект; " +
        "в `@context` нет schema.org; у корневого объекта или у элемента `@graph` нет `@type`. Страницы без JSON-LD не оцениваются. " +
        "Оценка по доле таких страниц, где главная весит 3, остальные по 1; уровень warn.",
      fix:
        "Формируйте JSON-LD функцией сериализации языка (`json_encode` в PHP, `JSON.stringify` в JavaScript), а не склейкой строк: она сама расставит кавычки и экранирование. " +
        "Укажите `\"@context\": \"https://schema.org\"` и `@type` у каждого объекта. В PHP флаг `JSON_HEX_TAG` заодно не даст тексту из базы закрыть тег `<script>`.",
      examples: [
        {
          caption: "HTML",
          code: String.raw`<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Product",
  "name": "Стул Oslo",
  "offers": { "@type": "Offer", "price": "7900", "priceCurrency": "RUB" }
}
</script>`,
        },
        {
          caption: "шаблон на PHP",
          code: String.raw`<script type="application/ld+json"><?= json_encode($data, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_HEX_TAG) ?></script>`,
        },
      ],
      verify:
        "Проверьте страницу в Rich Results Test от Google (search.google.com/test/rich-results) или в Schema Markup Validator (validator.schema.org); в Яндекс Вебмастере есть " +
        "«Валидатор микроразметки». Ошибок разбора быть не должно.",
    },
    {
      code: "schema_required",
      heading: "У элементов разметки есть обязательные свойства",
      problem:
        "Поисковики показывают расширенный сниппет, только если у элемента разметки есть нужные свойства: у товара — название и предложение с ценой или отзывы, " +
        "у статьи — заголовок, картинка, дата и автор. Неполная разметка не ломает страницу, но и пользы не приносит: Google отмечает её в отчётах Search Console как ошибочную, " +
        "и звёзд с ценой в выдаче не будет.",
      rule:
        "Svc берёт элементы JSON-LD страниц выборки (корневые объекты, элементы массивов и `@graph`) и для известных типов проверяет свойства: Organization — name, url, logo; " +
        "WebSite — name, url; Product — name и одно из offers, review, aggregateRating; Article, NewsArticle и BlogPosting — headline, image, datePublished, author; " +
        "LocalBusiness — name, address; BreadcrumbList — непустой itemListElement, у каждого элемента position и name (можно внутри item), а item — у всех, кроме последнего. " +
        "Пустая строка или пустой список не считаются значением. Первое недостающее свойство — провал страницы, в деталях тип и свойство. " +
        "Страницы без элементов этих типов не оцениваются; подтипы вроде Restaurant не проверяются. Уровень info.",
      fix:
        "Дополните разметку свойствами из данных страницы: дату публикации и автора — из записи в CMS, картинку — из главного изображения, цену — из каталога. " +
        "Не выдумывайте значения, которых нет на странице: разметка должна описывать видимое содержимое.",
      examples: [
        {
          caption: "JSON-LD статьи со всеми нужными свойствами",
          code: String.raw`<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Article",
  "headline": "Как выбрать стул для кухни",
  "image": "https://example.com/img/articles/chair-guide.webp",
  "datePublished": "2025-03-10",
  "author": { "@type": "Person", "name": "Анна Смирнова" }
}
</script>`,
        },
      ],
      verify:
        "Rich Results Test покажет, какие расширенные результаты страница может получить и каких свойств не хватает. В Search Console отчёты по типам разметки " +
        "(товары, хлебные крошки и другие) покажут ошибки по всему сайту.",
    },
    {
      code: "schema_core_types",
      heading: "Главная описывает сайт или организацию",
      problem:
        "Разметка WebSite и Organization на главной сообщает поисковику, как называется сайт, кому он принадлежит, где логотип и профили в соцсетях. " +
        "Google использует её, в частности, для названия сайта в выдаче; без неё поисковик собирает эти сведения по косвенным признакам и может ошибиться — " +
        "например, показать вместо названия бренда доменное имя.",
      rule:
        "Svc смотрит на типы разметки главной страницы — из JSON-LD и из микроданных. Зачёт — среди них есть WebSite, Organization или один из подтипов организации: Corporation, " +
        "LocalBusiness, OnlineStore, OnlineBusiness, NewsMediaOrganization, EducationalOrganization, GovernmentOrganization, NGO. Иначе провал уровня info; " +
        "в деталях какие типы на главной есть. Если главная не ответила 2xx с HTML, проверка неприменима.",
      fix:
        "Добавьте на главную блок JSON-LD с двумя элементами в `@graph`: WebSite с названием и адресом сайта и Organization (или подходящий подтип) " +
        "с названием, адресом, логотипом и ссылками на профили в `sameAs`.",
      examples: [
        {
          caption: "JSON-LD главной",
          code: String.raw`<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@graph": [
    { "@type": "WebSite", "name": "Фабрика «Пример»", "url": "https://example.com/" },
    {
      "@type": "Organization",
      "name": "Мебельная фабрика «Пример»",
      "url": "https://example.com/",
      "logo": "https://example.com/logo.png",
      "sameAs": ["https://vk.com/example", "https://t.me/example"]
    }
  ]
}
</script>`,
        },
      ],
      verify:
        "Проверьте главную в Schema Markup Validator: он покажет элементы WebSite и Organization со всеми свойствами. Повторная проверка Svc назовёт найденные типы.",
    },
    {
      code: "schema_breadcrumbs",
      heading: "Внутренние страницы размечают хлебные крошки",
      problem:
        "Хлебные крошки («Главная › Каталог › Стулья») показывают, где страница находится в структуре сайта. Размеченные через BreadcrumbList, они могут появиться в выдаче " +
        "вместо голого адреса — по цепочке разделов понятнее, куда ведёт результат. Заодно поисковик лучше понимает иерархию сайта.",
      rule:
        "Svc проверяет HTML-страницы выборки, кроме главной, в пути которых не меньше двух частей (`/catalog/chairs/` — да, `/about/` — нет): это порог Svc, " +
        "чтобы страницы первого уровня не требовали крошек. Зачёт — среди типов разметки страницы (JSON-LD или микроданные) есть BreadcrumbList; иначе провал уровня info. " +
        "Полноту самой цепочки оценивает schema_required. Оценка по доле таких страниц.",
      fix:
        "Выводите на внутренних страницах видимые хлебные крошки и тот же путь в разметке BreadcrumbList. Последний элемент — текущая страница, ему адрес не обязателен. " +
        "Большинство SEO-плагинов и тем умеют добавлять эту разметку вместе с крошками.",
      examples: [
        {
          caption: "JSON-LD страницы https://example.com/catalog/chairs/",
          code: String.raw`<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "BreadcrumbList",
  "itemListElement": [
    { "@type": "ListItem", "position": 1, "name": "Главная", "item": "https://example.com/" },
    { "@type": "ListItem", "position": 2, "name": "Каталог", "item": "https://example.com/catalog/" },
    { "@type": "ListItem", "position": 3, "name": "Стулья" }
  ]
}
</script>`,
        },
      ],
      verify:
        "Rich Results Test должен распознать на странице хлебные крошки (BreadcrumbList) без ошибок. Повторная проверка Svc пройдёт, когда разметка будет на всех " +
        "достаточно глубоких страницах выборки.",
    },
  ],
};
