// The platform's time, as the API's `Date` header tells it. Deadlines a screen proposes (an
// adjourned match's "resume by") and countdowns it shows are the platform's: a phone whose clock
// is minutes off, or a local stack whose clock was moved on, would otherwise offer a deadline
// already past or count down to the wrong moment. The header has one-second resolution, plenty
// for deadlines in minutes and hours.

let offset = 0;

/** Remember how far the platform's clock is from this device's, from an answer's `Date`. */
export function heardDate(header: string | null, received = Date.now()): void {
  if (!header) return;
  const platform = Date.parse(header);
  if (!Number.isNaN(platform)) offset = platform - received;
}

/** Learn the offset from a live answer; the last answer the service worker kept while offline
 * (`x-tavla-offline`) carries the Date of when it was first sent, so it tells nothing. */
export function heardFrom(response: Response): void {
  if (!response.headers.get("x-tavla-offline")) heardDate(response.headers.get("Date"));
}

/** Now by the platform's clock, in milliseconds since the epoch. */
export function platformNow(): number {
  return Date.now() + offset;
}
