import { describe, expect, it } from 'vitest';
import { buildRefusal } from '../../../src/slack/builders/refusal-builder.ts';

describe('refusals', () => {
  it('refuses a ticket that is not the person’s in the same words as any other id', () => {
    const theirs = buildRefusal('not_visible', 'IT-1').text.replace('IT-1', 'ID');
    const missing = buildRefusal('not_visible', 'IT-999').text.replace('IT-999', 'ID');
    expect(theirs).toBe(missing);
  });

  it('offers a new ticket when the ticket is closed', () => {
    expect(JSON.stringify(buildRefusal('closed', 'IT-1'))).toContain(
      '"action_id":"new_ticket_button"',
    );
  });
});
