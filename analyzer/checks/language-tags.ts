// Language tags as html_lang (BCP 47) and hreflang (ISO 639-1 + ISO 3166-1) accept them.

const ISO_639_1 = new Set(
  ("aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es " +
    "et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj " +
    "kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv " +
    "ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti " +
    "tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu").split(" "),
);

const ISO_3166_1 = new Set(
  ("ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz ca cc " +
    "cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr ga gb gd ge " +
    "gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km " +
    "kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz " +
    "na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh " +
    "si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug um us uy uz va vc ve vg " +
    "vi vn vu wf ws ye yt za zm zw").split(" "),
);

// Languages written in Cyrillic only: a page tagged with one of them but written in Latin script is mistagged.
const CYRILLIC_LANGUAGES = new Set(["ru", "uk", "be", "bg", "mk", "kk", "ky", "tg", "mn", "tt", "ba", "cv", "ce", "os", "sr"]);
const CYRILLIC_ONLY = new Set(["ru", "uk", "be", "bg", "mk", "kk", "ky", "tg"]);
const MIN_LETTERS = 100;
const DOMINANT_SHARE = 0.8;

/** hreflang value: `x-default`, or an ISO 639-1 language with optional script and ISO 3166-1 region. */
export function isValidHreflang(code: string): boolean {
  if (code.toLowerCase() === "x-default") return true;
  const [language, ...rest] = code.toLowerCase().split("-");
  if (!language || !ISO_639_1.has(language)) return false;
  if (rest[0] !== undefined && /^[a-z]{4}$/.test(rest[0])) rest.shift();
  if (rest.length === 0) return true;
  return rest.length === 1 && ISO_3166_1.has(rest[0] ?? "");
}

/** BCP 47 tag: a known 2-letter or any 3-letter primary language, optional script, region, variants, extensions. */
export function isValidLangTag(tag: string): boolean {
  const parts = tag.toLowerCase().split("-");
  const language = parts.shift() ?? "";
  if (!(ISO_639_1.has(language) || /^[a-z]{3}$/.test(language))) return false;
  if (parts[0] !== undefined && /^[a-z]{4}$/.test(parts[0])) parts.shift();
  if (parts[0] !== undefined && (/^\d{3}$/.test(parts[0]) || /^[a-z]{2}$/.test(parts[0]))) {
    if (!/^\d{3}$/.test(parts[0]) && !ISO_3166_1.has(parts[0])) return false;
    parts.shift();
  }
  return parts.every((p) => /^([a-z0-9]{5,8}|\d[a-z0-9]{3}|[a-z0-9]{1,8})$/.test(p));
}

/**
 * Whether the visible text plainly contradicts the declared language, judged by script only
 * (Cyrillic vs Latin): a cheap stand-in for language detection that never flags mixed text.
 */
export function scriptContradicts(tag: string, text: string): boolean {
  const { cyrillic, latin } = scriptLetters(text);
  const letters = cyrillic + latin;
  if (letters < MIN_LETTERS) return false;
  const language = tag.toLowerCase().split("-")[0] ?? "";
  if (cyrillic / letters >= DOMINANT_SHARE) return !CYRILLIC_LANGUAGES.has(language);
  if (latin / letters >= DOMINANT_SHARE) return CYRILLIC_ONLY.has(language);
  return false;
}

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * Cyrillic and Latin letters of a text, by code point, counted in one pass without an array of
 * matches: in ASCII only A-Z and a-z are either (Latin), the rest is asked of the regular expressions.
 */
function scriptLetters(text: string): { cyrillic: number; latin: number } {
  let cyrillic = 0;
  let latin = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const lower = c | 32;
      if (lower >= 97 && lower <= 122) latin += 1;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const ch = String.fromCodePoint(cp);
    if (CYRILLIC.test(ch)) cyrillic += 1;
    else if (LATIN.test(ch)) latin += 1;
  }
  return { cyrillic, latin };
}
