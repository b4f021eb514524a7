import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { CARD_BLOCKS } from '../../../src/slack/ids.ts';

const ticket: Ticket = {
  id: 'IT-12',
  title: 'VPN drops every hour',
  status: 'in_progress',
  priority: 'high',
  created_at: '2026-11-20T09:30:00Z',
  assignee_email: 'alex.agent@acme.example',
  url: 'https://acme.example/dashboard/tickets/IT-12',
};

const allText = (value: unknown) => JSON.stringify(value);

describe('ticket card', () => {
  it('shows the title, status, priority, created date, assignee and a dashboard link', () => {
    const card = buildTicketCard(ticket);
    const text = allText(card.blocks);
    expect(text).toContain('*IT-12* · VPN drops every hour');
    expect(text).toContain('In progress');
    expect(text).toContain('High');
    expect(text).toContain('<!date^1795167000^');
    expect(text).toContain('alex.agent@acme.example');
    expect(text).toContain('"url":"https://acme.example/dashboard/tickets/IT-12"');
  });

  it('shows the assignee as a Slack mention, not their address, when Slack knows them', () => {
    const text = allText(buildTicketCard(ticket, { assignee: { userId: 'U0ALEX', name: 'Alex' } }));
    expect(text).toContain('*Assignee*\\n<@U0ALEX>');
    expect(text).not.toContain('alex.agent@acme.example');
  });

  it('names the team once when nobody has the ticket yet', () => {
    const text = allText(buildTicketCard({ ...ticket, assignee_email: null, team: 'People Team' }));
    expect(text).toContain('*Assignee*\\n:busts_in_silhouette: People Team');
    expect(text).not.toContain('Team People Team');
  });

  it('makes a title of <!channel> ping nobody', () => {
    const card = buildTicketCard({ ...ticket, title: '<!channel> <!here> <@U0001> &' });
    const text = allText(card);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<@U0001>');
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('keeps a huge title inside the section limit', () => {
    const card = buildTicketCard({ ...ticket, title: 'x'.repeat(10_000) });
    for (const block of card.blocks) {
      if (block.type === 'section' && block.text)
        expect(block.text.text.length).toBeLessThanOrEqual(3000);
    }
    expect(card.text.length).toBeLessThanOrEqual(4000);
  });

  it('builds the dashboard link from the configured base when the ticket has none', () => {
    const { url: _url, ...noUrl } = ticket;
    expect(allText(buildTicketCard(noUrl, { dashboardUrl: 'https://desk.example/' }))).toContain(
      'https://desk.example/tickets/IT-12',
    );
  });

  it('shows an unknown status as written instead of failing', () => {
    expect(allText(buildTicketCard({ ...ticket, status: 'on_hold' }))).toContain('On hold');
  });

  it('shows the ticket’s custom field values by their names when given its desk’s fields', () => {
    const card = buildTicketCard(
      { ...ticket, custom_fields: { device_type: 'laptop', office: 'Berlin 4th floor' } },
      {
        deskFields: [
          {
            key: 'device_type',
            name: 'Device type',
            type: 'select',
            required: true,
            options: [{ value: 'laptop', label: 'Laptop' }],
          },
          { key: 'office', name: 'Office', type: 'text', required: false },
        ],
      },
    );
    const text = allText(card.blocks);
    expect(text).toContain('*Device type*\\nLaptop');
    expect(text).toContain('*Office*\\nBerlin 4th floor');
  });

  it('shows no custom fields without the desk’s definitions to name them', () => {
    const card = buildTicketCard({ ...ticket, custom_fields: { device_type: 'laptop' } });
    expect(allText(card.blocks)).not.toContain('laptop');
  });

  describe('service-level clocks', () => {
    // The platform's clocks: due in 12 minutes as of `nowMs`.
    const withClocks: Ticket = {
      ...ticket,
      first_response_due_at: '2026-11-20T10:30:00Z',
      resolution_due_at: '2026-11-20T17:30:00Z',
    };
    const clocks = {
      targets: parseServiceTargets('*:high=1h/8h').targets,
      warnAt: 0.8,
      nowMs: Date.parse('2026-11-20T10:18:00Z'),
    };
    const clockText = (card: ReturnType<typeof buildTicketCard>) =>
      card.blocks.find((b) => b.block_id === CARD_BLOCKS.clocks);

    it('shows the clocks to an agent on their own card', () => {
      const card = buildTicketCard(withClocks, {
        audience: { isAgent: true, isRequester: false },
        clocks,
      });
      expect(allText(clockText(card))).toContain('First response due <!date^');
    });

    it('never shows a requester the internal targets, even when given them', () => {
      const card = buildTicketCard(withClocks, {
        audience: { isAgent: false, isRequester: true },
        clocks,
      });
      expect(clockText(card)).toBeUndefined();
      expect(allText(card)).not.toMatch(/due|breached|Paused|:clock3:/);
    });

    it('never shows the clocks on a card everyone in a conversation sees', () => {
      for (const audience of ['everyone', 'none'] as const) {
        const card = buildTicketCard(withClocks, { audience, clocks });
        expect(clockText(card)).toBeUndefined();
      }
      expect(clockText(buildTicketCard(withClocks, { clocks }))).toBeUndefined();
    });
  });
});
