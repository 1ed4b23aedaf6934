// Types of the untyped CommonJS packages the utilities use.
declare module "snowball-stemmers" {
  export interface Stemmer {
    stem(word: string): string;
  }
  export function newStemmer(language: string): Stemmer;
  export function algorithms(): string[];
}

declare module "stopwords-iso" {
  const lists: Record<string, string[]>;
  export default lists;
}

declare module "csso" {
  export function minify(css: string, options?: { restructure?: boolean; comments?: boolean | string }): { css: string };
}

declare module "html-minifier-terser" {
  export function minify(html: string, options?: Record<string, unknown>): Promise<string>;
}

declare module "js-beautify" {
  interface Options {
    indent_size?: number;
    indent_char?: string;
    indent_with_tabs?: boolean;
    end_with_newline?: boolean;
  }
  export function js(code: string, options?: Options): string;
  export function css(code: string, options?: Options): string;
  export function html(code: string, options?: Options): string;
}

declare module "sql-formatter" {
  export function format(sql: string, options?: { language?: string; tabWidth?: number; keywordCase?: "preserve" | "upper" | "lower" }): string;
}

declare module "ua-parser-js" {
  interface Result {
    ua: string;
    browser: { name?: string; version?: string; major?: string };
    engine: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { vendor?: string; model?: string; type?: string };
    cpu: { architecture?: string };
  }
  export function UAParser(ua: string): Result;
}

declare module "fontkit" {
  export interface Font {
    readonly unitsPerEm: number;
    hasGlyphForCodePoint(cp: number): boolean;
    glyphForCodePoint(cp: number): { readonly advanceWidth: number };
  }
  export function openSync(path: string): Font;
}
