import { describe, expect, it } from 'vitest';
import { isTicketId, normaliseTicketId } from '../../src/servicedesk/ticket-id.ts';

describe('ticket IDs', () => {
  it('upper-cases a lower-case ID', () => {
    expect(normaliseTicketId('abc-12')).toBe('ABC-12');
  });

  it('trims surrounding whitespace', () => {
    expect(normaliseTicketId('  IT-7 ')).toBe('IT-7');
  });

  it('rejects strings that are not PREFIX-NUMBER', () => {
    for (const bad of ['ABC', 'ABC-', '-12', 'ABC-0', 'ABC-12x', 'A B-1', '12-34', 'ABC-12/../x']) {
      expect(normaliseTicketId(bad), bad).toBeUndefined();
      expect(isTicketId(bad), bad).toBe(false);
    }
  });
});
