// Explanations of the structured_data display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const STRUCTURED_DATA: Readonly<Record<string, ExplanationText>> = {
  jsonld_syntax: {
    hint: {
      ru: {
        what: "Разбирает блоки <script type=\"application/ld+json\"> страниц выборки, где они есть.",
        good: "Каждый блок — корректный JSON-объект (или массив объектов) с @context schema.org и @type.",
        bad: "Хотя бы один блок не разбирается как JSON, не является объектом, не ссылается на schema.org или не имеет @type.",
        glossary: ["JSON-LD — формат микроразметки в виде JSON внутри страницы", "schema.org — словарь типов микроразметки (Organization, Product…)"],
      },
      en: {
        what: "Parses the <script type=\"application/ld+json\"> blocks of the sampled pages that have them.",
        good: "Every block is a valid JSON object (or array of objects) with a schema.org @context and an @type.",
        bad: "At least one block does not parse as JSON, is not an object, lacks a schema.org @context or an @type.",
        glossary: ["JSON-LD — structured data written as JSON inside the page", "schema.org — the vocabulary of structured data types (Organization, Product…)"],
      },
    },
    plain: {
      ru: {
        name: "Микроразметка без ошибок",
        what: "Микроразметка — скрытое описание страницы для поисковиков: товар, цена, рейтинг, организация.",
        why: "Разметку с ошибками поисковики игнорируют, и расширенного сниппета со звёздами или ценой не будет.",
        benefit: "Шанс на расширенные сниппеты, заметные в выдаче.",
        effort: "час-два: исправить шаблон разметки",
        who: "разработчик, добавлявший разметку",
      },
    },
  },
  schema_required: {
    hint: {
      ru: {
        what: "Разбирает объекты JSON-LD страниц (верхний уровень и @graph) и проверяет обязательные свойства известных типов.",
        good: "Organization: name, url, logo; WebSite: name, url; Product: name и offers, review или aggregateRating; Article, NewsArticle, BlogPosting: headline, image, datePublished, author; LocalBusiness: name, address; у элементов BreadcrumbList есть position, name и item (у последнего item не обязателен). Страницы без этих типов не оцениваются.",
        bad: "Хотя бы одному объекту не хватает обязательного свойства: расширенного результата по нему не будет. Оценка по доле таких страниц.",
        glossary: ["обязательное свойство — поле, без которого поисковик не строит расширенный результат", "@graph — список нескольких объектов в одном блоке JSON-LD"],
      },
      en: {
        what: "Parses the JSON-LD items of the pages (top level and @graph) and checks the required properties of known types.",
        good: "Organization: name, url, logo; WebSite: name, url; Product: name and offers, review or aggregateRating; Article, NewsArticle, BlogPosting: headline, image, datePublished, author; LocalBusiness: name, address; BreadcrumbList entries have position, name and item (item optional on the last). Pages without these types are not judged.",
        bad: "At least one item lacks a required property: it will get no rich result. Scored by the share of such pages.",
        glossary: ["required property — a field without which search engines build no rich result", "@graph — a list of several items inside one JSON-LD block"],
      },
    },
    plain: {
      ru: {
        name: "Микроразметка заполнена полностью",
        what: "В описании товара, статьи или организации для поисковиков есть поля, без которых оно не работает.",
        why: "Неполную разметку поисковик игнорирует, и цена, рейтинг или логотип в выдаче не появятся.",
        benefit: "Больше шансов на заметные расширенные результаты.",
        effort: "час-два: дополнить шаблон разметки",
        who: "разработчик, внедрявший микроразметку",
      },
    },
  },
  schema_core_types: {
    hint: {
      ru: {
        what: "Смотрит типы микроразметки главной страницы (JSON-LD и microdata).",
        good: "На главной есть WebSite или Organization (либо её разновидность: Corporation, LocalBusiness, OnlineStore, NewsMediaOrganization и др.).",
        bad: "Ни одного из этих типов: поисковику сложнее узнать название сайта, логотип и профили компании.",
        glossary: ["WebSite — тип разметки, задающий название сайта для выдачи", "Organization — тип разметки с названием, логотипом и контактами компании"],
      },
      en: {
        what: "Looks at the structured data types of the home page (JSON-LD and microdata).",
        good: "The home page declares WebSite or Organization (or one of its kinds: Corporation, LocalBusiness, OnlineStore, NewsMediaOrganization and others).",
        bad: "None of them: search engines find it harder to learn the site's name, logo and company profiles.",
        glossary: ["WebSite — the structured data type giving the site name shown in results", "Organization — the structured data type with a company's name, logo and contacts"],
      },
    },
    plain: {
      ru: {
        name: "Главная описывает сайт и компанию",
        what: "На главной странице можно разметкой сообщить поисковику название сайта, компанию и её логотип.",
        why: "Без этого поисковик угадывает название и может показать неверное или обойтись без логотипа.",
        benefit: "Правильное название и логотип в поиске и в карточке компании.",
        effort: "час: добавить блок разметки на главную",
        who: "разработчик главной страницы или SEO-специалист",
      },
    },
  },
  schema_breadcrumbs: {
    hint: {
      ru: {
        what: "Смотрит, есть ли BreadcrumbList (JSON-LD или microdata) на внутренних страницах с путём от двух уровней (/blog/post/).",
        good: "У каждой такой страницы есть BreadcrumbList; главная и страницы первого уровня (/about/) не оцениваются — этот порог выбран в Svc.",
        bad: "Страница внутри раздела без разметки хлебных крошек: в выдаче вместо пути виден голый адрес. Оценка по доле таких страниц.",
        glossary: ["хлебные крошки — путь к странице: Главная › Блог › Статья", "BreadcrumbList — тип разметки schema.org для хлебных крошек"],
      },
      en: {
        what: "Checks that inner pages two or more path levels deep (/blog/post/) carry a BreadcrumbList (JSON-LD or microdata).",
        good: "Every such page has a BreadcrumbList; the home page and first-level pages (/about/) are not judged — a threshold Svc chose.",
        bad: "A page inside a section has no breadcrumb markup: results show the bare URL instead of the trail. Scored by the share of such pages.",
        glossary: ["breadcrumbs — the trail to a page: Home › Blog › Post", "BreadcrumbList — the schema.org type for breadcrumbs"],
      },
    },
    plain: {
      ru: {
        name: "Путь к странице размечен",
        what: "Строка «Главная › Раздел › Страница» помогает понять, где находишься.",
        why: "Если отметить её разметкой, поисковик покажет этот путь в выдаче вместо длинного адреса.",
        benefit: "Результаты в поиске понятнее и привлекательнее.",
        effort: "час: добавить разметку в шаблон хлебных крошек",
        who: "разработчик шаблона хлебных крошек",
      },
    },
  },
};
