// Greek first, then English and Italian: every text comes from a message catalogue
// (i18n/*.json). The language: the one chosen on this device, else the profile's (applied when
// it is read), else the browser's, else Greek.
import { signal } from "./signal";
import el from "./i18n/el.json";
import en from "./i18n/en.json";
import it from "./i18n/it.json";

export type Key = keyof typeof el;
export type Lang = "el" | "en" | "it";
export const LANGUAGES: readonly Lang[] = ["el", "en", "it"];
const catalogues: Record<Lang, Record<Key, string>> = { el, en, it };

const STORE = "tavla.lang"; // a preference, not a secret: localStorage is fine here

/** A language tag ("it-IT", "en") as one of ours, or undefined. */
export function ours(tag: string | null | undefined): Lang | undefined {
  const base = (tag ?? "").toLowerCase().split("-")[0];
  return LANGUAGES.find((l) => l === base);
}

/** The first language this device asks for: chosen here, else the browser's, else Greek. */
export function firstLanguage(stored: string | null, browser: readonly string[]): Lang {
  return ours(stored) ?? browser.map(ours).find((l) => l !== undefined) ?? "el";
}

const initial = firstLanguage(localStorage.getItem(STORE), navigator.languages ?? [navigator.language]);
export const language = signal<Lang>(initial);
document.documentElement.lang = initial;

export const lang = (): Lang => language.value;

export function setLang(value: Lang, remember = true): void {
  if (remember) localStorage.setItem(STORE, value);
  document.documentElement.lang = value;
  if (language.value !== value) language.set(value);
}

/** The signed-in player's profile names a language (`language`, read defensively: older API
 * answers have none); it applies unless this device chose one. */
export function applyProfileLanguage(profile: unknown): void {
  const wanted = ours((profile as { language?: string } | undefined)?.language);
  if (wanted && !localStorage.getItem(STORE)) setLang(wanted, false);
}

/** `text` with `{name}` placeholders filled from `vars`; `{name|one|other}` is the word for that
 * count in `language`'s plural rules (1 αγώνας, 2 αγώνες). */
export function fill(text: string, vars: Record<string, string | number>, language: Lang): string {
  const plural = new Intl.PluralRules(language);
  return text.replace(/\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}/g, (_, name: string, one?: string, other?: string) =>
    one === undefined ? String(vars[name] ?? "") : plural.select(Number(vars[name])) === "one" ? one : (other ?? ""),
  );
}

/** The text for `key` in the current language. */
export function t(key: Key, vars: Record<string, string | number> = {}): string {
  return fill(catalogues[language.value][key] ?? catalogues.el[key] ?? key, vars, language.value);
}
