/** Values from the platform reach mrkdwn escaped wherever a ticket is shown. */
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildAppHome } from '../../../src/slack/builders/app-home-builder.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { buildTicketList } from '../../../src/slack/builders/ticket-list-builder.ts';

const hostile: Ticket = {
  id: 'IT-9',
  title: 'Printer',
  status: '<!channel> now',
  priority: 'medium',
  created_at: '2026-11-20T09:30:00Z',
  url: 'https://desk.example/t/IT-9|spoofed> <!here>',
};

// Every place a ticket is listed or shown, as the mrkdwn Slack would render.
const shown = (ticket: Ticket) => [
  JSON.stringify(buildTicketCard(ticket).blocks),
  JSON.stringify(buildTicketList([ticket], undefined).blocks),
  JSON.stringify(buildAppHome({ kind: 'tickets', tickets: [ticket] }, undefined).blocks),
];

describe('platform values in mrkdwn', () => {
  it('escapes an unknown status so it pings nobody', () => {
    for (const text of shown(hostile)) {
      expect(text).not.toContain('<!channel>');
      expect(text).toContain('&lt;!channel&gt;');
    }
  });

  it('does not link a ticket URL that would close the link early', () => {
    for (const text of shown(hostile)) {
      expect(text).not.toContain('<!here>');
      expect(text).not.toContain('spoofed>');
    }
  });

  it('does not link a URL that is not http(s)', () => {
    for (const text of shown({ ...hostile, status: 'open', url: 'javascript:alert(1)' })) {
      expect(text).not.toContain('javascript:');
    }
  });

  it('still links a plain https dashboard URL', () => {
    const plain = { ...hostile, status: 'open', url: 'https://desk.example/t/IT-9' };
    for (const text of shown(plain)) expect(text).toContain('https://desk.example/t/IT-9');
  });
});
