// Greek first, English second: every text comes from a message catalogue (i18n/*.json).
import { signal } from "./signal";
import el from "./i18n/el.json";
import en from "./i18n/en.json";

export type Key = keyof typeof el;
export type Lang = "el" | "en";
const catalogues: Record<Lang, Record<Key, string>> = { el, en };

const STORE = "tavla.lang"; // a preference, not a secret: localStorage is fine here
const initial: Lang = localStorage.getItem(STORE) === "en" ? "en" : "el";
export const language = signal<Lang>(initial);
document.documentElement.lang = initial;

export const lang = (): Lang => language.value;

export function setLang(value: Lang): void {
  localStorage.setItem(STORE, value);
  document.documentElement.lang = value;
  language.set(value);
}

/** The text for `key` in the current language, `{name}` placeholders filled from `vars`;
 * `{name|one|other}` is the word for that count in the language's plural rules (1 αγώνας, 2 αγώνες). */
export function t(key: Key, vars: Record<string, string | number> = {}): string {
  const text = catalogues[language.value][key] ?? catalogues.el[key] ?? key;
  const plural = new Intl.PluralRules(language.value);
  return text.replace(/\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}/g, (_, name: string, one?: string, other?: string) =>
    one === undefined ? String(vars[name] ?? "") : plural.select(Number(vars[name])) === "one" ? one : (other ?? ""),
  );
}
