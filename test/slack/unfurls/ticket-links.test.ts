import { describe, expect, it } from 'vitest';
import { ticketIdOfLink } from '../../../src/slack/unfurls/ticket-links.ts';
import {
  MAX_UNFURLS_PER_MESSAGE,
  ticketLinks,
} from '../../../src/slack/unfurls/ticket-unfurler.ts';

const HOSTS = ['desk.acme.example'];

describe('ticket links', () => {
  it('reads the ticket ID from a dashboard link on a dashboard host or its subdomain', () => {
    expect(ticketIdOfLink('https://desk.acme.example/dashboard/acme/tickets/it-19', HOSTS)).toBe(
      'IT-19',
    );
    expect(ticketIdOfLink('https://eu.desk.acme.example/tickets/IT-19/', HOSTS)).toBe('IT-19');
  });

  it('takes no link on another host, without a ticket ID, or not http(s)', () => {
    expect(ticketIdOfLink('https://evil.example/tickets/IT-19', HOSTS)).toBeUndefined();
    expect(
      ticketIdOfLink('https://notdesk.acme.example.evil/tickets/IT-19', HOSTS),
    ).toBeUndefined();
    expect(ticketIdOfLink('https://desk.acme.example/tickets', HOSTS)).toBeUndefined();
    expect(ticketIdOfLink('ftp://desk.acme.example/tickets/IT-19', HOSTS)).toBeUndefined();
  });

  it(`keeps at most ${MAX_UNFURLS_PER_MESSAGE} ticket links of a message, each once`, () => {
    const links = Array.from(
      { length: 50 },
      (_, i) => `https://desk.acme.example/tickets/IT-${i + 1}`,
    );
    expect(ticketLinks([links[0] as string, ...links], HOSTS).map((l) => l.ticketId)).toEqual(
      links.slice(0, MAX_UNFURLS_PER_MESSAGE).map((_, i) => `IT-${i + 1}`),
    );
  });
});
