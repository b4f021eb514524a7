/**
 * The platform's timestamps as epoch milliseconds, for the mirror's comparisons and due times.
 */

/** An ISO timestamp in ms since the epoch; undefined when absent or not a date. */
export function timeOf(iso: string | null | undefined): number | undefined {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}
