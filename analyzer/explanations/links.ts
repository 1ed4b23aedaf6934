// Explanations of the links display group. Pure data.
import type { Explanation } from "./types.ts";

export const LINKS: Readonly<Record<string, Explanation>> = {
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
    guide: null,
  },
  localhost_links: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки ссылки на localhost, 127.0.0.1, 0.0.0.0, [::1] и имена *.localhost.",
        good: "Ни одна ссылка не ведёт на локальный адрес.",
        bad: "Хотя бы одна ссылка ведёт на локальный адрес.",
        glossary: ["localhost — имя компьютера самого пользователя, а не сервера сайта", "127.0.0.1 — локальный адрес IPv4, то же, что localhost"],
      },
      en: {
        what: "Looks for links to localhost, 127.0.0.1, 0.0.0.0, [::1] and *.localhost names on the sampled pages.",
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
    guide: null,
  },
  internal_nofollow: {
    hint: {
      ru: {
        what: "Ищет на страницах выборки внутренние ссылки с rel=\"nofollow\".",
        good: "Ни одна ссылка на свои страницы не помечена nofollow.",
        bad: "Хотя бы одна внутренняя ссылка помечена nofollow.",
        glossary: ["nofollow — пометка ссылки «не передавать вес и не переходить»", "внутренняя ссылка — ссылка на страницу того же сайта"],
      },
      en: {
        what: "Looks for internal links with rel=\"nofollow\" on the sampled pages.",
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
    guide: null,
  },
};
