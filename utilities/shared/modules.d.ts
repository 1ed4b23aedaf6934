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
