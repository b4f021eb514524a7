/** Ticket display IDs: `PREFIX-NUMBER`, looked up case-insensitively. */

const TICKET_ID = /^([A-Za-z][A-Za-z0-9]{0,15})-([1-9][0-9]{0,11})$/;

/** Whether a string is a ticket display ID in any case (`abc-12`, `ABC-12`). */
export function isTicketId(raw: string): boolean {
  return TICKET_ID.test(raw.trim());
}

/**
 * The canonical form of a ticket ID (upper case, trimmed), or undefined when the string is
 * not one. Callers validate before any request so a typo never costs rate budget.
 */
export function normaliseTicketId(raw: string): string | undefined {
  const match = TICKET_ID.exec(raw.trim());
  if (!match) return undefined;
  return `${(match[1] as string).toUpperCase()}-${match[2] as string}`;
}
