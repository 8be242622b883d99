/** Numbers and moments as the pages print them: percentages with one decimal, durations in
 * words, dates in the reader's own language. */

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${value.toFixed(1)}%`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A moment as the reader's browser writes dates, in its own language and order. */
export function dateTime(iso: string): string {
  return new Intl.DateTimeFormat(navigator.languages, {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(iso));
}
