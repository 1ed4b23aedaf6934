import { describe, expect, it } from "vitest";
import { refusal, run } from "./run.ts";

// spell_check over the English Hunspell dictionary (building the Russian one takes seconds and
// hundreds of MB: the gateway test runs the example, RU included, in the utility's own thread).

describe("spell_check", () => {
  it("finds misspellings with their positions and suggestions, and skips abbreviations, URLs, digits and ignored words", async () => {
    const text = "This sentense has an eror. The eror is in HTML at https://exampel.com/x and 3rd Hunspel, see Wrld.";
    const out = await run("spell_check", { text, language: "en", ignore: ["wrld"] });
    expect(out.result).toEqual({
      words_checked: 13,
      errors: [
        { word: "sentense", language: "en", count: 1, positions: [5], suggestions: ["sentence"] },
        { word: "eror", language: "en", count: 2, positions: [21, 31], suggestions: ["error", "err", "Eros"] },
        { word: "Hunspel", language: "en", count: 1, positions: [80], suggestions: ["Hunspell"] },
      ],
    });
    expect(text.slice(21, 25)).toBe("eror");
    expect(out.blocks.pairs).toEqual([
      { label: "Words checked", value: "13" },
      { label: "Misspellings", value: "3", status: "warn" },
    ]);
  });

  it("in en mode leaves Cyrillic words alone (the dictionary is US English); a wrong language or an overlong text is bad_param", async () => {
    expect((await run("spell_check", { text: "Превед color colour", language: "en" })).result).toEqual({
      words_checked: 2,
      errors: [{ word: "colour", language: "en", count: 1, positions: [13], suggestions: ["color"] }],
    });
    expect(await refusal("spell_check", { text: "x", language: "de" })).toMatchObject({ code: "bad_param", field: "input.language" });
    expect(await refusal("spell_check", { text: "a".repeat(100_001) })).toMatchObject({ code: "bad_param", field: "input.text" });
  });
});
