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

// How people write an ID by hand: `#it-19`, `IT – 19`, `IT19`, `it 19`. A prefix without a
// hyphen is taken only when short and made of letters, so a title such as "Printer on floor 3"
// is never read as a ticket.
const TYPED_WITH_HYPHEN = /^#?\s*([A-Za-z][A-Za-z0-9]{0,15})\s*[-‐‑–—]\s*0*([1-9][0-9]{0,11})$/;
const TYPED_WITHOUT_HYPHEN = /^#?\s*([A-Za-z]{1,5})\s*0*([1-9][0-9]{0,11})$/;

/**
 * The canonical ticket ID a person meant, from how they typed it (`#it-19`, `IT19`, `it 19`,
 * `IT-019`), or undefined when the text is not an ID.
 */
export function ticketIdFromText(raw: string): string | undefined {
  const text = raw.trim();
  const match = TYPED_WITH_HYPHEN.exec(text) ?? TYPED_WITHOUT_HYPHEN.exec(text);
  if (!match) return undefined;
  return normaliseTicketId(`${match[1] as string}-${match[2] as string}`);
}
