import { describe, expect, it } from 'vitest';
import { isTicketId, normaliseTicketId, ticketIdFromText } from '../../src/contract/ticket-id.ts';

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

  it('reads an ID typed with a #, without its hyphen, with a space or in lower case', () => {
    for (const typed of [
      'IT-19',
      'it-19',
      '#it-19',
      '#IT-19',
      'IT19',
      'it19',
      'IT 19',
      'it - 19',
      'IT–19',
      'IT-019',
    ]) {
      expect(ticketIdFromText(typed), typed).toBe('IT-19');
    }
  });

  it('keeps a prefix with digits when the ID has its hyphen', () => {
    expect(ticketIdFromText('#ops2-7')).toBe('OPS2-7');
  });

  it('reads no ID from words that only end in a number', () => {
    for (const words of [
      'Printer on floor 3',
      'laptop 2',
      'help',
      'mine',
      '19',
      'IT-0',
      '#',
      'IT-19 broken',
    ]) {
      expect(ticketIdFromText(words), words).toBeUndefined();
    }
  });
});
