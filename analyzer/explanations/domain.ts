// Explanations of the domain display group. Pure data.
import type { ExplanationText } from "./types.ts";

export const DOMAIN: Readonly<Record<string, ExplanationText>> = {
  dns_resolves: {
    hint: {
      ru: {
        what: "Запрашивает в DNS адреса хоста: записи A и AAAA.",
        good: "Имя разрешается хотя бы в один адрес.",
        bad: "Имя не разрешается (нет записей A/AAAA или ошибка DNS) — рейтинг ограничен 10.",
        glossary: ["A/AAAA — DNS-записи с IPv4- и IPv6-адресом сервера", "делегирование — указание, какие DNS-серверы отвечают за домен"],
      },
      en: {
        what: "Asks DNS for the host's addresses: A and AAAA records.",
        good: "The name resolves to at least one address.",
        bad: "The name does not resolve (no A/AAAA record or a DNS error) — the rank is capped at 10.",
        glossary: ["A/AAAA — DNS records with the server's IPv4 and IPv6 address", "delegation — which DNS servers are responsible for a domain"],
      },
    },
    plain: {
      ru: {
        name: "Домен работает",
        what: "Чтобы открыть сайт, браузер сначала узнаёт по имени домена адрес сервера.",
        why: "Если домен не разрешается, сайт недоступен всем: людям, поисковикам, почте.",
        benefit: "Сайт снова находится по своему имени.",
        effort: "от минут до суток: поправить записи у DNS-провайдера или продлить домен",
        who: "владелец домена или администратор DNS",
      },
    },
  },
  spf: {
    hint: {
      ru: {
        what: "Читает TXT-записи v=spf1 зарегистрированного домена.",
        good: "Ровно одна запись, не больше 10 механизмов с DNS-запросами, без ptr, заканчивается на -all или ~all (либо redirect=).",
        bad: "Записи нет или их несколько; +all или all — серьёзно; больше 10 запросов, ptr, ?all или нет завершающего all — предупреждение.",
        glossary: ["SPF — DNS-запись со списком серверов, которым разрешено слать почту от домена", "-all / ~all — отклонять / помечать письма с прочих серверов"],
      },
      en: {
        what: "Reads the v=spf1 TXT records of the registrable domain.",
        good: "Exactly one record with at most 10 DNS-querying terms, no ptr, ending in -all or ~all (or a redirect=).",
        bad: "No record or several; +all or a bare all is serious; over 10 lookups, ptr, ?all or no closing all is a warning.",
        glossary: ["SPF — a DNS record listing the servers allowed to send mail for the domain", "-all / ~all — reject / mark mail from any other server"],
      },
    },
    plain: {
      ru: {
        name: "Почта домена защищена от подделки (SPF)",
        what: "Запись SPF перечисляет серверы, которые могут отправлять письма от имени вашего домена.",
        why: "Без неё мошенники легко рассылают письма «от вас», а ваши настоящие письма чаще попадают в спам.",
        benefit: "Меньше фишинга от вашего имени, письма клиентам доходят надёжнее.",
        effort: "минут 20: одна TXT-запись у DNS-провайдера",
        who: "администратор почты или DNS",
      },
    },
  },
  dmarc: {
    hint: {
      ru: {
        what: "Читает TXT-запись _dmarc зарегистрированного домена.",
        good: "Запись с v=DMARC1 и тегом p= (p=none засчитывается, но только как наблюдение; желателен адрес отчётов rua=).",
        bad: "Записи нет или в ней нет v=DMARC1 либо политики p=.",
        glossary: ["DMARC — политика, что делать с письмами, не прошедшими SPF/DKIM", "rua — адрес, куда почтовые системы присылают сводные отчёты"],
      },
      en: {
        what: "Reads the _dmarc TXT record of the registrable domain.",
        good: "A record with v=DMARC1 and a p= tag (p=none counts, but only monitors; an rua= report address is advised).",
        bad: "There is no record, or it lacks v=DMARC1 or the p= policy.",
        glossary: ["DMARC — a policy on what to do with mail failing SPF/DKIM", "rua — the address receivers send aggregate reports to"],
      },
    },
    plain: {
      ru: {
        name: "Опубликована политика DMARC",
        what: "DMARC говорит почтовым сервисам, что делать с письмами, подделанными под ваш домен.",
        why: "Без политики поддельные письма доходят до получателей, а Gmail и Яндекс хуже доверяют вашей рассылке.",
        benefit: "Подделки отклоняются, а вы получаете отчёты о том, кто шлёт почту от вашего имени.",
        effort: "минут 20 на запись и пара недель наблюдения за отчётами",
        who: "администратор почтового домена",
      },
    },
  },
  ns_redundancy: {
    hint: {
      ru: {
        what: "Читает NS-записи домена и считает разные DNS-серверы.",
        good: "У домена не меньше двух разных серверов имён.",
        bad: "Сервер имён один: его сбой делает недоступными сайт и почту.",
        glossary: ["NS-запись — указание, какой DNS-сервер отвечает за домен", "RFC 2182 — рекомендация держать не меньше двух серверов имён в разных сетях"],
      },
      en: {
        what: "Reads the domain's NS records and counts distinct name servers.",
        good: "The domain has at least two different name servers.",
        bad: "There is a single name server: its outage takes the site and mail down.",
        glossary: ["NS record — says which DNS server is authoritative for a domain", "RFC 2182 — advises at least two name servers on different networks"],
      },
    },
    plain: {
      ru: {
        name: "У домена есть запасной DNS-сервер",
        what: "DNS-серверы подсказывают всему интернету, где находится ваш сайт.",
        why: "Если такой сервер один и он сломается, сайт и почта пропадут для всех, хотя сам хостинг работает.",
        benefit: "Домен переживает сбой одного DNS-сервера незаметно для посетителей.",
        effort: "полчаса: добавить второй NS у регистратора или DNS-провайдера",
        who: "администратор домена",
      },
    },
  },
  caa: {
    hint: {
      ru: {
        what: "Читает CAA-записи домена и ищет среди них теги issue и issuewild.",
        good: "Есть CAA-запись с issue, называющая разрешённые центры сертификации.",
        bad: "CAA-записей нет или в них нет issue — сертификат для домена может выпустить любой центр.",
        glossary: ["CAA — DNS-запись со списком центров, которым можно выпускать сертификаты домена", "центр сертификации — организация, выпускающая TLS-сертификаты, например Let's Encrypt"],
      },
      en: {
        what: "Reads the domain's CAA records and looks for issue and issuewild tags.",
        good: "A CAA record with an issue tag names the allowed certificate authorities.",
        bad: "There is no CAA record or none with issue, so any authority may issue a certificate for the domain.",
        glossary: ["CAA — a DNS record listing the authorities allowed to issue the domain's certificates", "certificate authority — an organisation issuing TLS certificates, e.g. Let's Encrypt"],
      },
    },
    plain: {
      ru: {
        name: "Выпуск сертификатов для домена ограничен",
        what: "Сертификат для замочка в браузере может выпустить любой из сотен удостоверяющих центров.",
        why: "Запись CAA сужает этот круг и мешает злоумышленнику получить сертификат на ваш домен в другом месте.",
        benefit: "Меньше риск поддельного сертификата для вашего сайта.",
        effort: "минут 10: одна DNS-запись",
        who: "администратор DNS-зоны домена",
      },
    },
  },
  mx: {
    hint: {
      ru: {
        what: "Читает MX-записи домена; нулевой MX «0 .» тоже считается ответом.",
        good: "Есть MX-записи почтовых серверов или нулевой MX для домена без почты.",
        bad: "MX-записей нет: отправители пытаются доставить почту на адрес сайта, и письма теряются.",
        glossary: ["MX — DNS-запись с адресом сервера, принимающего почту домена", "нулевой MX — запись «0 .», означающая, что домен почту не принимает (RFC 7505)"],
      },
      en: {
        what: "Reads the domain's MX records; a null MX \"0 .\" also counts as an answer.",
        good: "There are MX records for mail servers, or a null MX for a domain without mail.",
        bad: "No MX record: senders try the web server's address and messages get lost.",
        glossary: ["MX — a DNS record naming the server that receives the domain's mail", "null MX — the record \"0 .\" saying the domain takes no mail (RFC 7505)"],
      },
    },
    plain: {
      ru: {
        name: "Почта на домен доставляется",
        what: "Записи MX сообщают, какой сервер принимает письма, отправленные на адреса вашего домена.",
        why: "Без них письма клиентов на адрес вида info@ваш-домен не доходят или долго висят в очереди.",
        benefit: "Письма доходят, либо отправители сразу узнают, что почты на домене нет.",
        effort: "минут 15: добавить записи у DNS-провайдера",
        who: "администратор почты или тот, кто ведёт DNS домена",
      },
    },
  },
  ipv6: {
    hint: {
      ru: {
        what: "Смотрит, есть ли у хоста запись AAAA с адресом IPv6; отвечает ли сайт по IPv6, не проверяется. Для хоста, заданного IP-адресом, не применяется.",
        good: "Есть хотя бы одна запись AAAA.",
        bad: "Записи AAAA нет: сайт доступен только по IPv4, и посетителям из сетей IPv6 нужен шлюз трансляции.",
        glossary: ["IPv6 — новая система адресов интернета с адресами вида 2001:db8::1", "запись AAAA — DNS-запись с IPv6-адресом сервера"],
      },
      en: {
        what: "Looks for an AAAA record (an IPv6 address) for the host; whether the site answers over IPv6 is not tested. A host given as an IP address is not judged.",
        good: "There is at least one AAAA record.",
        bad: "No AAAA record: the site is reachable over IPv4 only, and visitors on IPv6 networks go through a translation gateway.",
        glossary: ["IPv6 — the newer internet addressing, with addresses like 2001:db8::1", "AAAA record — a DNS record holding a server's IPv6 address"],
      },
    },
    plain: {
      ru: {
        name: "Сайт доступен по IPv6",
        what: "В интернете две системы адресов: старая IPv4 и новая IPv6.",
        why: "Часть мобильных операторов работает по IPv6, и без такого адреса их абоненты идут к сайту через промежуточный шлюз.",
        benefit: "Прямой и быстрый доступ из любых сетей.",
        effort: "полчаса: включить IPv6 у хостинга или CDN и добавить запись",
        who: "администратор DNS или хостинг-провайдер",
      },
    },
  },
  bimi: {
    hint: {
      ru: {
        what: "Читает TXT-запись default._bimi.<домен> и политику DMARC; домен, объявивший в SPF «v=spf1 -all» (почту не отправляет), и хост-IP-адрес не оцениваются.",
        good: "Запись v=BIMI1 с l= — адресом логотипа по https, а DMARC в режиме p=quarantine или p=reject без pct меньше 100.",
        bad: "Записи нет, l= пустой (отказ от BIMI) или не https, либо DMARC ничего не требует (p=none, pct меньше 100): почтовые сервисы логотип не покажут.",
        glossary: ["BIMI — стандарт показа логотипа бренда рядом с письмом во входящих", "SVG Tiny PS — упрощённый вид SVG, которого почтовые сервисы требуют для логотипа"],
      },
      en: {
        what: "Reads the TXT record at default._bimi.<domain> and the DMARC policy; a domain whose SPF says \"v=spf1 -all\" (it sends no mail) and a host given as an IP address are not judged.",
        good: "A v=BIMI1 record whose l= is an https logo URL, with DMARC at p=quarantine or p=reject and no pct under 100.",
        bad: "No record, an empty l= (BIMI declined) or one that is not https, or a DMARC policy that enforces nothing (p=none, pct under 100): mailbox providers will not show the logo.",
        glossary: ["BIMI — the standard for showing a brand's logo next to its mail in the inbox", "SVG Tiny PS — the restricted SVG profile mailbox providers require for the logo"],
      },
    },
    plain: {
      ru: {
        name: "Логотип компании в письмах",
        what: "Почтовые сервисы умеют показывать логотип компании рядом с её письмами.",
        why: "Логотип выделяет письма во входящих и помогает отличить их от поддельных.",
        benefit: "Письма узнаваемее, доверия к ним больше.",
        effort: "день: подготовить логотип в SVG, ужесточить DMARC и опубликовать запись",
        who: "администратор почты и DNS вместе с дизайнером",
      },
    },
  },
};
