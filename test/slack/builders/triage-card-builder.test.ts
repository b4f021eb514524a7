import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import { buildTriageCard } from '../../../src/slack/builders/triage-card-builder.ts';
import { ACTIONS, TRIAGE_CARD_BLOCKS } from '../../../src/slack/ids.ts';
import { blocksProblems } from '../../../tools/slack-double/block-kit-validation.ts';

const ticket: Ticket = {
  id: 'IT-42',
  title: 'Laptop will not boot',
  status: 'new',
  priority: 'high',
  created_at: '2026-11-20T09:30:00Z',
  description: 'Black screen since this morning.\nTried the power button.',
  desk_id: 'it',
  requester_email: 'alice@acme.example',
  channel: 'slack',
};

const allText = (value: unknown) => JSON.stringify(value);

function field(card: ReturnType<typeof buildTriageCard>, name: string): string {
  for (const block of card.blocks) {
    if (block.type !== 'section' || !block.fields) continue;
    const found = block.fields.find((f) => f.text.startsWith(`*${name}*\n`));
    if (found) return found.text.slice(name.length + 3);
  }
  throw new Error(`no field ${name}`);
}

function actionIds(card: ReturnType<typeof buildTriageCard>): string[] {
  const actions = card.blocks.find((b) => b.type === 'actions');
  return actions && 'elements' in actions
    ? actions.elements.map((e) => (e as { action_id: string }).action_id)
    : [];
}

describe('triage card', () => {
  it('shows the title, desk, priority, status, assignee, when it was filed and where from', () => {
    const card = buildTriageCard(ticket, {
      requester: { userId: 'U0ALICE' },
      deskName: 'IT Support',
      slackPermalink: 'https://acme.slack.com/archives/C0ITHELP/p1700000000000100',
    });
    expect(allText(card.blocks)).toContain('*IT-42* · Laptop will not boot');
    expect(field(card, 'Desk')).toBe('IT Support');
    expect(field(card, 'Priority')).toContain('High');
    expect(field(card, 'Status')).toContain('New');
    expect(field(card, 'Assignee')).toBe('_Not assigned yet_');
    expect(field(card, 'Filed')).toContain('<!date^1795167000^');
    expect(field(card, 'From')).toBe(
      '<https://acme.slack.com/archives/C0ITHELP/p1700000000000100|Slack message>',
    );
  });

  it('mentions a requester whose email is a Slack user’s', () => {
    const card = buildTriageCard(ticket, { requester: { userId: 'U0ALICE', name: 'Alice' } });
    expect(field(card, 'Requester')).toBe('<@U0ALICE>');
  });

  it('names a requester Slack does not know, with their email', () => {
    const card = buildTriageCard(ticket, { requester: { name: 'Alice Archer' } });
    expect(field(card, 'Requester')).toBe('Alice Archer (alice@acme.example)');
    expect(field(buildTriageCard(ticket), 'Requester')).toBe('alice@acme.example');
  });

  it('says where a ticket from elsewhere came from, and when it is on no desk', () => {
    const card = buildTriageCard({ ...ticket, channel: 'email', desk_id: null });
    expect(field(card, 'From')).toBe('Email');
    expect(field(card, 'Desk')).toBe('_No desk_');
  });

  it('shows the assignee by the address alone when Slack knows no one with it, or the team when nobody has it yet', () => {
    expect(
      field(buildTriageCard({ ...ticket, assignee_email: 'sam@acme.example' }), 'Assignee'),
    ).toBe('sam@acme.example');
    expect(field(buildTriageCard({ ...ticket, team: 'Hardware' }), 'Assignee')).toBe(
      ':busts_in_silhouette: Hardware',
    );
  });

  it('names a team once: "People Team", never "Team People Team"', () => {
    expect(field(buildTriageCard({ ...ticket, team: 'People Team' }), 'Assignee')).toBe(
      ':busts_in_silhouette: People Team',
    );
  });

  it('shows the assignee as a mention when their email is a Slack user’s', () => {
    const card = buildTriageCard(
      { ...ticket, assignee_email: 'sam.rivera@acme.example' },
      { assignee: { userId: 'U0AGENT', name: 'Sam Rivera' } },
    );
    expect(field(card, 'Assignee')).toBe('<@U0AGENT>');
  });

  it('shows the assignee by their Slack name when no Slack id came with it', () => {
    const card = buildTriageCard(
      { ...ticket, assignee_email: 'sam.rivera@acme.example' },
      { assignee: { name: 'Sam <Rivera>' } },
    );
    expect(field(card, 'Assignee')).toBe('Sam &lt;Rivera&gt;');
  });

  it('quotes the first lines of the description and says when more is in the ticket', () => {
    const long = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    const card = buildTriageCard({ ...ticket, description: long });
    const text = allText(card.blocks);
    expect(text).toContain('>line 1\\n>line 2');
    expect(text).toContain('>line 5');
    expect(text).not.toContain('line 6');
    expect(text).toContain('more in the ticket');
  });

  it('leaves the description out when the ticket has none', () => {
    const card = buildTriageCard({ ...ticket, description: null });
    expect(card.blocks.filter((b) => b.type === 'section')).toHaveLength(2);
  });

  it('makes nothing from the ticket or its requester ping anyone', () => {
    const loud = '<!channel> <!here> <@U0001> <!subteam^S1> &';
    const card = buildTriageCard(
      { ...ticket, title: loud, description: loud, desk_id: loud, requester_email: loud },
      { requester: { name: loud, userId: '<!channel>' }, deskName: loud },
    );
    const text = allText(card);
    for (const ping of ['<!channel>', '<!here>', '<@U0001>', '<!subteam^S1>'])
      expect(text).not.toContain(ping);
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('links no origin that is not an https URL', () => {
    const card = buildTriageCard(ticket, { slackPermalink: 'javascript:alert(1)' });
    expect(field(card, 'From')).toBe('Slack');
  });

  it('carries Assign to me, Update, Reply to requester and Open in dashboard, each with the ticket', () => {
    const card = buildTriageCard(ticket, { dashboardUrl: 'https://desk.example' });
    expect(actionIds(card)).toEqual([
      ACTIONS.assignToMe,
      ACTIONS.openUpdate,
      ACTIONS.replyToRequester,
      ACTIONS.openInDashboard,
    ]);
    const actions = card.blocks.find((b) => b.type === 'actions');
    expect(actions?.block_id).toBe(TRIAGE_CARD_BLOCKS.actions);
    expect(allText(actions)).toContain('"value":"IT-42"');
    expect(allText(actions)).toContain('https://desk.example/tickets/IT-42');
  });

  it('offers only the dashboard on a closed ticket', () => {
    const card = buildTriageCard(
      { ...ticket, status: 'closed' },
      { dashboardUrl: 'https://desk.example' },
    );
    expect(actionIds(card)).toEqual([ACTIONS.openInDashboard]);
  });

  it('stays inside Block Kit’s limits with a huge ticket', () => {
    const huge = '&'.repeat(20_000);
    const card = buildTriageCard(
      { ...ticket, title: huge, description: `${huge}\n`.repeat(8), requester_email: huge },
      { requester: { name: huge }, deskName: huge },
    );
    expect(blocksProblems(card.blocks, '/blocks', 50)).toEqual([]);
    expect(card.text.length).toBeLessThanOrEqual(4000);
  });

  it('shows the ticket’s custom field values under their desk’s names', () => {
    const card = buildTriageCard(
      { ...ticket, custom_fields: { office: 'berlin', serial_number: 'C02X' } },
      {
        deskFields: [
          {
            key: 'office',
            name: 'Office',
            type: 'select',
            required: false,
            options: [{ value: 'berlin', label: 'Berlin' }],
            help: null,
          },
          {
            key: 'serial_number',
            name: 'Serial number',
            type: 'text',
            required: false,
            options: null,
            help: null,
          },
        ],
      },
    );
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain('Office');
    expect(shown).toContain('Berlin');
    expect(shown).toContain('Serial number');
    expect(blocksProblems(card.blocks, '/blocks', 50)).toEqual([]);
  });

  describe('service-level clocks', () => {
    const created = Date.parse(ticket.created_at);
    const targets = parseServiceTargets('it:high=1h/8h').targets;
    const at = (minutes: number, fields: Partial<Ticket> = {}) =>
      buildTriageCard(
        { ...ticket, ...fields },
        { clocks: { targets, warnAt: 0.8, nowMs: created + minutes * 60_000 } },
      );
    const clocks = (card: ReturnType<typeof buildTriageCard>) =>
      card.blocks.find((b) => b.block_id === TRIAGE_CARD_BLOCKS.clocks);

    it('shows each clock in a context block right under the fields', () => {
      const card = at(10);
      const index = card.blocks.findIndex((b) => b.block_id === TRIAGE_CARD_BLOCKS.clocks);
      expect(card.blocks[index - 1]).toHaveProperty('fields');
      const text = allText(clocks(card));
      expect(text).toContain(':clock3: First response due <!date^');
      expect(text).toContain(':clock3: Resolution due <!date^');
      expect(blocksProblems(card.blocks, '/blocks', 50)).toEqual([]);
    });

    it('turns the first response to a warning at 80% and red at its due time', () => {
      expect(allText(clocks(at(49)))).toContain(':warning: First response due');
      expect(allText(clocks(at(61)))).toContain(':red_circle: First response breached');
    });

    it('reads the platform’s own due times and pause before SLA_TARGETS', () => {
      const card = buildTriageCard(
        {
          ...ticket,
          first_response_due_at: '2026-11-20T09:35:00Z',
          resolution_due_at: null,
          sla_paused: true,
        },
        { clocks: { targets, warnAt: 0.8, nowMs: created + 60 * 60_000 } },
      );
      expect(allText(clocks(card))).toContain('Paused: waiting on requester');
      expect(allText(clocks(card))).not.toContain('Resolution');
    });

    it('says the first response was met once the platform records one', () => {
      const card = at(90, { first_responded_at: '2026-11-20T09:40:00Z' });
      expect(allText(clocks(card))).toContain(':white_check_mark: First response met');
    });

    it('shows no clock without targets or without the clock inputs', () => {
      expect(clocks(at(10, { priority: 'low' }))).toBeUndefined();
      expect(clocks(buildTriageCard(ticket))).toBeUndefined();
    });
  });
});
