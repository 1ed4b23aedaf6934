import { defineUtility, type UtilityPorts } from "../utility.ts";

interface Input {
  language: "latin" | "ru";
  unit: "paragraphs" | "sentences" | "words" | "chars";
  count: number;
  html: boolean;
}

const LATIN_START = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.";
const LATIN = (
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud " +
  "exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur " +
  "excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum curabitur pretium tincidunt lacus nunc vitae " +
  "suscipit mauris integer vel arcu donec quam felis ultricies nec pellentesque pretium semper nisi porta"
).split(" ");
/** The opening of the Russian "fish" text every layout designer knows. */
const RU_START = "Далеко-далеко за словесными горами в стране гласных и согласных живут рыбные тексты.";
const RU = (
  "вдали от всех живут они в буквенных домах на берегу семантика большого языкового океана маленький ручеек даль журчит по всей стране и обеспечивает ее " +
  "всеми необходимыми правилами эта парадигматическая страна которой жаренные члены предложения залетают прямо в рот даже всемогущая пунктуация не имеет " +
  "власти над рыбными текстами ведущими безорфографичный образ жизни однажды одна маленькая строчка рыбного текста по имени lorem ipsum решила выйти " +
  "большой мир грамматики великий оксмокс предупреждал ее о злых запятых диких знаках вопроса и коварных точках с запятой"
).split(" ");

function sentence(ports: UtilityPorts, words: readonly string[]): string {
  const n = 6 + ports.randomInt(9);
  const picked = Array.from({ length: n }, () => words[ports.randomInt(words.length)] as string);
  // A comma after the third to sixth word of longer sentences, as real prose has.
  if (n > 8) picked[3 + ports.randomInt(3)] += ",";
  const s = picked.join(" ");
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

export const loremIpsum = defineUtility<Input>({
  id: "lorem_ipsum",
  group: "text",
  title: 'Lorem ipsum / "fish" text',
  description: 'Placeholder text, either Latin lorem ipsum or Russian "fish" text, by paragraphs, sentences, words or characters, with optional <p> markup',
  net: false,
  file: false,
  fields: [
    { name: "language", type: "sel", label: "Language", options: ["latin", "ru"], default: "latin" },
    { name: "unit", type: "sel", label: "Count", options: ["paragraphs", "sentences", "words", "chars"], default: "paragraphs" },
    { name: "count", type: "int", label: "How many", default: 3, min: 1, max: 100 },
    { name: "html", type: "bool", label: "Wrap paragraphs in <p>", default: false },
  ],
  example: { language: "ru", unit: "sentences", count: 2 },
  run(i, ports) {
    const words = i.language === "ru" ? RU : LATIN;
    const start = i.language === "ru" ? RU_START : LATIN_START;
    const sentences = (n: number) => [start, ...Array.from({ length: Math.max(0, n - 1) }, () => sentence(ports, words))];
    let paragraphs: string[];
    if (i.unit === "paragraphs") {
      paragraphs = Array.from({ length: i.count }, (_, p) => {
        const n = 3 + ports.randomInt(4);
        return (p === 0 ? sentences(n) : Array.from({ length: n }, () => sentence(ports, words))).join(" ");
      });
    } else if (i.unit === "sentences") paragraphs = [sentences(i.count).join(" ")];
    else {
      const pool = sentences(Math.ceil((i.unit === "words" ? i.count : i.count / 5) / 6) + 2).join(" ");
      if (i.unit === "words") {
        const w = pool.split(" ").slice(0, i.count).join(" ").replace(/[,.]$/, "");
        paragraphs = [`${w}.`];
      } else paragraphs = [[...pool].slice(0, i.count).join("")];
    }
    const text = i.html ? paragraphs.map((p) => `<p>${p}</p>`).join("\n") : paragraphs.join("\n\n");
    return { result: { text, words: text.split(/\s+/).filter(Boolean).length, chars: [...text].length }, blocks: { code: [{ lang: i.html ? "html" : "text", text }] } };
  },
});
