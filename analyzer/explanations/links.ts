// Explanations of the links display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const LINKS: Readonly<Record<string, ExplanationText>> = {
  link_text: {
    hint: {
      ru: {
        what: "Сравнивает текст http(s)-ссылок страниц выборки со списком неинформативных анкоров («click here», «read more», «здесь», «подробнее», «далее»…).",
        good: "Ни одна ссылка не состоит только из такой фразы.",
        bad: "Хотя бы одна ссылка называется неинформативной фразой из списка.",
        glossary: ["анкор — видимый текст ссылки", "неинформативный анкор — текст вроде «подробнее», не говорящий, куда ведёт ссылка"],
      },
      en: {
        what: "Compares the text of the sampled pages' http(s) links with a list of vague anchors (\"click here\", \"read more\", \"here\", \"more\"…).",
        good: "No link consists only of such a phrase.",
        bad: "At least one link is named with a vague phrase from the list.",
        glossary: ["anchor — the visible text of a link", "vague anchor — text like \"read more\" that does not say where the link leads"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки названы понятно",
        what: "Текст ссылки должен говорить, что откроется по клику.",
        why: "«Подробнее» ничего не сообщает ни поисковику, ни человеку, который просматривает страницу глазами или чтецом.",
        benefit: "Поисковик лучше понимает связанные страницы, посетители быстрее находят нужное.",
        effort: "несколько часов: переписать тексты ссылок в шаблонах и статьях",
        who: "контент-менеджер и верстальщик",
      },
    },
  },
  localhost_links: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки ссылки на localhost, 127.0.0.1, 0.0.0.0, [::1] и имена *.localhost, кроме ссылок на хост и порт самой страницы: сайт, который сам работает на локальном адресе, ссылается на себя законно.",
        good: "Ни одна ссылка не ведёт на локальный адрес.",
        bad: "Хотя бы одна ссылка ведёт на локальный адрес.",
        glossary: ["localhost — имя компьютера самого пользователя, а не сервера сайта", "127.0.0.1 — локальный адрес IPv4, то же, что localhost"],
      },
      en: {
        what: "Looks for links to localhost, 127.0.0.1, 0.0.0.0, [::1] and *.localhost names on the sampled pages, except links to the page's own host and port: a site that itself runs on a local address rightly links to itself.",
        good: "No link points to a local address.",
        bad: "At least one link points to a local address.",
        glossary: ["localhost — the visitor's own computer, not the site's server", "127.0.0.1 — the local IPv4 address, the same as localhost"],
      },
    },
    plain: {
      ru: {
        name: "Нет ссылок на компьютер разработчика",
        what: "Иногда на сайте остаются ссылки, которые работали только у разработчика во время создания сайта.",
        why: "У посетителей такие ссылки не открываются, а сайт выглядит брошенным.",
        benefit: "Все ссылки работают у посетителей.",
        effort: "около часа: найти и заменить адреса в базе и шаблонах",
        who: "разработчик, переносивший сайт",
      },
    },
  },
  internal_nofollow: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки внутренние ссылки с rel=\"nofollow\". Не считаются ссылки на саму страницу, её якоря и её варианты с параметрами (ссылки «Ответить» WordPress с ?replytocom=) и на адреса, закрытые в robots.txt для поисковиков: там nofollow ставят намеренно.",
        good: "Ни одна ссылка на свои страницы не помечена nofollow.",
        bad: "Хотя бы одна внутренняя ссылка помечена nofollow.",
        glossary: ["nofollow — пометка ссылки «не передавать вес и не переходить»", "внутренняя ссылка — ссылка на страницу того же сайта"],
      },
      en: {
        what: "Looks for internal links with rel=\"nofollow\" on the sampled pages. Links to the page itself, its fragments and its query variants (WordPress's ?replytocom= reply links), and to URLs robots.txt closes to search crawlers, are not counted: a CMS nofollows them on purpose.",
        good: "No link to the site's own pages carries nofollow.",
        bad: "At least one internal link carries nofollow.",
        glossary: ["nofollow — a link hint meaning \"do not pass weight or follow\"", "internal link — a link to a page of the same site"],
      },
    },
    plain: {
      ru: {
        name: "Свои страницы не закрыты nofollow",
        what: "Пометка nofollow на ссылке просит поисковик не ходить по ней.",
        why: "На своих ссылках она мешает поисковику находить страницы и передавать им вес.",
        benefit: "Поисковик обходит все разделы сайта, вес распределяется по страницам.",
        effort: "около часа: убрать атрибут в шаблонах меню и ссылок",
        who: "разработчик или SEO-специалист, настраивающий перелинковку",
      },
    },
  },
  broken_internal: {
    hint: {
      ru: {
        what: "Берёт из последнего полного обхода сайта (не старше 30 дней) адреса внутренних ссылок, которые отвечают 4xx, 5xx или не отвечают вовсе.",
        good: "Все внутренние ссылки, найденные обходом, ведут на работающие адреса.",
        bad: "Хотя бы одна внутренняя ссылка ведёт на адрес с ошибкой; оценка падает вместе с долей таких адресов среди обойдённых.",
        glossary: ["полный обход — проход робота по всем страницам сайта, до которых ведут ссылки и карта сайта", "битая ссылка — ссылка на адрес, который отвечает ошибкой 4xx или 5xx либо молчит"],
      },
      en: {
        what: "Takes from the latest whole-site crawl (at most 30 days old) the internal link targets that answer 4xx, 5xx or not at all.",
        good: "Every internal link the crawl found leads to a working URL.",
        bad: "At least one internal link leads to a failing URL; the score falls with the share of such URLs among those crawled.",
        glossary: ["whole-site crawl — a robot's pass over every page of the site that links and the sitemap lead to", "broken link — a link to a URL that answers with a 4xx or 5xx error or not at all"],
      },
    },
    plain: {
      ru: {
        name: "Внутренние ссылки не битые",
        what: "Раз в несколько недель сервис обходит весь сайт и проверяет, куда ведут ссылки между его страницами.",
        why: "Ссылка на несуществующую страницу раздражает посетителя и впустую тратит время поискового робота.",
        benefit: "Посетители и поисковики доходят до нужных страниц без тупиков.",
        effort: "от часа: поправить ссылки в меню и статьях или вернуть удалённые страницы",
        who: "контент-менеджер, а ссылки в шаблонах — разработчик",
      },
    },
  },
  broken_external: {
    hint: {
      ru: {
        what: "Берёт из последнего полного обхода сайта (не старше 30 дней) внешние ссылки, которые обход проверил, и находит среди них отвечающие 4xx, 5xx или не отвечающие вовсе. Проверяются только хосты, разрешённые настройкой SVC_EGRESS_ALLOW; остальные ссылки не проверяются, и тогда проверка не применяется.",
        good: "Все проверенные внешние ссылки ведут на работающие адреса.",
        bad: "Хотя бы одна проверенная внешняя ссылка ведёт на адрес с ошибкой; оценка падает вместе с долей таких ссылок среди проверенных.",
        glossary: ["внешняя ссылка — ссылка на страницу другого сайта", "SVC_EGRESS_ALLOW — список хостов, к которым сервису разрешено обращаться помимо самого сайта"],
      },
      en: {
        what: "Takes from the latest whole-site crawl (at most 30 days old) the external links the crawl checked and finds those answering 4xx, 5xx or not at all. Only hosts the SVC_EGRESS_ALLOW setting allows are checked; with none checked, the check is not applicable.",
        good: "Every external link checked leads to a working URL.",
        bad: "At least one checked external link leads to a failing URL; the score falls with the share of such links among those checked.",
        glossary: ["external link — a link to a page of another site", "SVC_EGRESS_ALLOW — the hosts the service may contact besides the site itself"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки на другие сайты не битые",
        what: "Сервис проверяет, открываются ли страницы других сайтов, на которые ссылается ваш сайт.",
        why: "Другие сайты переезжают и закрываются, и ссылка на пропавшую страницу разочаровывает читателя.",
        benefit: "Читатель попадает туда, куда обещает ссылка.",
        effort: "от получаса: найти новый адрес страницы или убрать ссылку",
        who: "автор или редактор текста со ссылкой",
      },
    },
  },
  internal_redirects: {
    hint: {
      ru: {
        what: "Считает по последнему полному обходу (не старше 30 дней) адреса внутренних ссылок, которые отвечают перенаправлением.",
        good: "Внутренние ссылки ведут прямо на конечные адреса.",
        bad: "Хотя бы одна внутренняя ссылка ведёт на перенаправление: лишний запрос для посетителя и робота.",
        glossary: ["перенаправление — ответ 301, 302, 307 или 308, отправляющий браузер на другой адрес", "конечный адрес — адрес, на котором цепочка перенаправлений заканчивается"],
      },
      en: {
        what: "Counts in the latest whole-site crawl (at most 30 days old) the internal link targets that answer with a redirect.",
        good: "Internal links lead straight to their final URLs.",
        bad: "At least one internal link leads to a redirect: an extra request for visitors and robots.",
        glossary: ["redirect response — a 301, 302, 307 or 308 answer that sends the browser elsewhere", "final URL — the URL where a series of redirects ends"],
      },
    },
    plain: {
      ru: {
        name: "Ссылки ведут сразу на нужный адрес",
        what: "После переезда страниц старые ссылки часто продолжают вести на прежние адреса, и сервер каждый раз перенаправляет.",
        why: "Каждое перенаправление — лишняя пауза перед открытием страницы и лишняя работа для поискового робота.",
        benefit: "Страницы открываются чуть быстрее, робот тратит время на новые страницы.",
        effort: "от получаса: заменить старые адреса в меню, шаблонах и статьях",
        who: "контент-менеджер, правящий ссылки после переезда страниц",
      },
    },
  },
  orphan_pages: {
    hint: {
      ru: {
        what: "Сравнивает адреса карты сайта со ссылками, найденными последним полным обходом (не старше 30 дней); обход, остановленный раньше срока, не судит.",
        good: "На каждый адрес карты сайта ссылается хотя бы одна обойдённая страница.",
        bad: "На некоторые адреса карты сайта не ведёт ни одна ссылка; оценка падает вместе с их долей среди обойдённых адресов.",
        glossary: ["страница-сирота — страница, на которую не ссылается ни одна другая страница сайта", "входящая ссылка — ссылка на страницу с другой страницы того же сайта"],
      },
      en: {
        what: "Compares the sitemap's URLs with the links found by the latest whole-site crawl (at most 30 days old); a crawl that stopped early is not judged.",
        good: "Every sitemap URL is linked from at least one crawled page.",
        bad: "Some sitemap URLs have no link pointing at them; the score falls with their share of the URLs crawled.",
        glossary: ["orphan page — a page that no other page of the site links to", "inlink — a link to a page from another page of the same site"],
      },
    },
    plain: {
      ru: {
        name: "Нет страниц без ссылок на них",
        what: "Страница, которая есть только в карте сайта, но не в меню и не в статьях, почти невидима.",
        why: "Посетители до неё не доходят, а поисковики считают её неважной и заходят на неё реже.",
        benefit: "Забытые страницы начинают получать посетителей и вес ссылок.",
        effort: "от нескольких часов: решить, откуда ссылаться на каждую страницу, и добавить ссылки",
        who: "редактор сайта вместе с SEO-специалистом",
      },
    },
  },
  crawl_depth: {
    hint: {
      ru: {
        what: "Считает по последнему полному обходу (не старше 30 дней) страницы, до которых от главной больше 3 кликов.",
        good: "Любая обойдённая страница достижима с главной не больше чем за 3 клика.",
        bad: "Есть страницы глубже 3 кликов; пока их не больше 10 % обойдённых, задача информационная, иначе — предупреждение.",
        glossary: ["глубина страницы — наименьшее число переходов по ссылкам от главной до неё", "листинг раздела — страница со списком материалов раздела и ссылками на них"],
      },
      en: {
        what: "Counts in the latest whole-site crawl (at most 30 days old) the pages more than 3 clicks away from the home page.",
        good: "Every crawled page is reachable from the home page in at most 3 clicks.",
        bad: "Some pages are deeper than 3 clicks; up to 10 % of the crawled pages the task is informational, above that a warning.",
        glossary: ["page depth — the fewest link clicks from the home page to the page", "section listing — a page that lists a section's items and links to them"],
      },
    },
    plain: {
      ru: {
        name: "Страницы недалеко от главной",
        what: "Чем больше кликов отделяет страницу от главной, тем реже до неё добираются люди и поисковые роботы.",
        why: "Глубоко спрятанные страницы обходятся редко, медленно попадают в поиск и получают мало веса ссылок.",
        benefit: "Новые и старые страницы быстрее находятся в поиске и на сайте.",
        effort: "от дня: перестроить меню, листинги разделов или пагинацию",
        who: "разработчик вместе с SEO-специалистом, продумывающим структуру",
      },
    },
  },
  too_many_links: {
    hint: {
      ru: {
        what: "Считает ссылки с адресами http(s) на каждой странице выборки.",
        good: "Не больше 100 ссылок на странице (порог SEOnaut); страницы без ссылок не оцениваются.",
        bad: "Больше 100 ссылок: вес страницы делится на всех, а посетитель теряется в списках. Оценка по доле таких страниц.",
        glossary: ["ссылочный вес — важность, которую страница передаёт тем, на кого ссылается", "мегаменю — огромное выпадающее меню со ссылками на все разделы"],
      },
      en: {
        what: "Counts the links with http(s) addresses on every sampled page.",
        good: "At most 100 links per page (SEOnaut's threshold); pages without links are not judged.",
        bad: "More than 100 links: the page's weight is split among all of them and visitors get lost in lists. Scored by the share of such pages.",
        glossary: ["link equity — the importance a page passes on to the pages it links to", "mega menu — a huge drop-down menu linking every section"],
      },
    },
    plain: {
      ru: {
        name: "Не слишком много ссылок",
        what: "На странице бывают сотни ссылок: меню, подвал, облака тегов.",
        why: "Когда их слишком много, важные страницы теряются и для посетителя, и для поисковика.",
        benefit: "Внимание посетителей и вес достаются главным страницам.",
        effort: "день: упростить меню и подвал",
        who: "дизайнер вместе с разработчиком",
      },
    },
  },
  empty_anchor_text: {
    hint: {
      ru: {
        what: "Ищет ссылки, у которых нет ни текста, ни alt картинки внутри, ни атрибутов aria-label, aria-labelledby или title.",
        good: "У каждой ссылки есть имя; страницы без ссылок не оцениваются.",
        bad: "Хотя бы одна ссылка без имени (часто значок без подписи): поисковик не знает, куда она ведёт, а незрячий слышит только «ссылка». Оценка по доле таких страниц.",
        glossary: ["aria-label — атрибут с текстом для программ чтения с экрана", "ссылка-значок — ссылка, внутри которой только картинка или иконка"],
      },
      en: {
        what: "Looks for links with no text, no alt on an image inside, and no aria-label, aria-labelledby or title attribute.",
        good: "Every link has a name; pages without links are not judged.",
        bad: "At least one link has no name (often an icon without a label): search engines cannot tell where it leads and a blind visitor hears only \"link\". Scored by the share of such pages.",
        glossary: ["aria-label — an attribute carrying text for screen readers", "icon link — a link holding only an image or an icon"],
      },
    },
    plain: {
      ru: {
        name: "У ссылок есть названия",
        what: "Ссылка-значок без подписи понятна зрячему, но не поисковику и не незрячему посетителю.",
        why: "Поисковик по тексту ссылки понимает, о чём страница назначения, а экранный диктор читает этот текст вслух.",
        benefit: "Ссылки понятны всем и лучше помогают страницам в поиске.",
        effort: "час: добавить подписи или aria-label значкам",
        who: "верстальщик, делавший ссылки-значки",
      },
    },
  },
  crawlable_anchors: {
    hint: {
      ru: {
        what: "Ищет ссылки <a>, по которым робот не может перейти, по правилу Lighthouse 12: href javascript:void(0) или file:, href, который не разбирается как адрес, и <a> без href, но с onclick. Прочие javascript:-действия (например, javascript:print() «Версии для печати» MediaWiki), ссылки с role, name и mailto: пропускаются, как в Lighthouse.",
        good: "Таких ссылок нет; страницы без ссылок не оцениваются.",
        bad: "Есть хотя бы одна такая ссылка: поисковик не перейдёт по ней и не найдёт страницу, куда она ведёт. Оценка по доле таких страниц.",
        glossary: ["javascript:-ссылка — ссылка, которая запускает скрипт вместо перехода по адресу", "onclick — обработчик нажатия, который поисковый робот не выполняет"],
      },
      en: {
        what: "Looks for <a> links a crawler cannot follow, by Lighthouse 12's rule: a javascript:void(0) or file: href, an href that does not parse as a URL, and <a> without href but with onclick. Other javascript: actions (MediaWiki's \"Printable version\", javascript:print()), links with a role, a name or a mailto: href are skipped, as in Lighthouse.",
        good: "There are none; pages without links are not judged.",
        bad: "At least one such link: search engines will not follow it or find the page behind it. Scored by the share of such pages.",
        glossary: ["javascript: link — a link that runs a script instead of going to an address", "onclick — a click handler that search crawlers do not run"],
      },
    },
    plain: {
      ru: {
        name: "По ссылкам может пройти робот",
        what: "Иногда «ссылки» на сайте — это кнопки, которые работают только через скрипт.",
        why: "Поисковый робот переходит только по настоящим адресам, и страницы за такими ссылками он не найдёт.",
        benefit: "Все страницы сайта доступны для поиска.",
        effort: "от часа: заменить скриптовые ссылки настоящими адресами",
        who: "фронтенд-разработчик сайта",
      },
    },
  },
};
