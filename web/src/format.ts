// Dates and times in the venue's time zone, amounts as EUR in Greek formatting (Intl only).
import { lang } from "./i18n";

export const VENUE_TIME_ZONE = "Europe/Athens";

const LOCALES = { el: "el-GR", en: "en-GB", it: "it-IT" } as const;
const locale = () => LOCALES[lang()];

export function dateTime(iso: string | null | undefined, timeZone = VENUE_TIME_ZONE): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));
}

export function time(iso: string | null | undefined, timeZone = VENUE_TIME_ZONE): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), { timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(
    new Date(iso),
  );
}

/** Minor units (cents) as euros, always in Greek formatting: "30,00 €". */
export function money(cents: number): string {
  return new Intl.NumberFormat("el-GR", { style: "currency", currency: "EUR" }).format(cents / 100);
}

/** Whole euros typed in a form ("30" or "30,50") to cents, or null when it is not an amount. */
export function cents(typed: string): number | null {
  const match = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*$/.exec(typed);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** The offset of `timeZone` at `utc`, in minutes east of UTC. */
function offsetMinutes(utc: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(utc);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((wall - utc.getTime()) / 60000);
}

/** A `datetime-local` value, read as wall time in the venue's zone, to an ISO 8601 instant. */
export function venueInputToIso(value: string, timeZone = VENUE_TIME_ZONE): string {
  const asUtc = new Date(`${value}:00Z`);
  const first = offsetMinutes(asUtc, timeZone);
  const guess = new Date(asUtc.getTime() - first * 60000);
  const offset = offsetMinutes(guess, timeZone);
  return new Date(asUtc.getTime() - offset * 60000).toISOString();
}

/** An instant as a `datetime-local` value in the venue's zone. */
export function isoToVenueInput(iso: Date, timeZone = VENUE_TIME_ZONE): string {
  const shifted = new Date(iso.getTime() + offsetMinutes(iso, timeZone) * 60000);
  return shifted.toISOString().slice(0, 16);
}

/** "mm:ss" left until `until` (ms since the epoch), or null once it has passed. */
export function countdown(until: number, now: number): string | null {
  const left = Math.floor((until - now) / 1000);
  if (left < 0) return null;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** "14:05": a venue's wall-clock time, 24-hour in every language. */
export function clock(iso: string | null | undefined, timeZone = VENUE_TIME_ZONE): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(locale(), { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    new Date(iso),
  );
}
