import { describe, expect, it } from 'vitest';
import { cardRefFromAction } from '../../../src/slack/builders/card-ref.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { buildTriageCard } from '../../../src/slack/builders/triage-card-builder.ts';

const ticket = {
  id: 'IT-3',
  title: 'Printer',
  status: 'open',
  priority: 'low',
  created_at: '2026-11-20T09:30:00Z',
};

describe('where a click happened', () => {
  it('names the app’s card with its lead so the refresh keeps it', () => {
    const card = buildTicketCard(ticket, { lead: ':ticket: <@U1> filed *IT-3*.' });
    const ref = cardRefFromAction(
      {
        container: { type: 'message', channel_id: 'C1', message_ts: '1.1' },
        message: { ts: '1.1', ...card },
      },
      'ticket_card_actions',
    );
    expect(ref).toEqual({
      kind: 'card',
      channel: 'C1',
      ts: '1.1',
      lead: ':ticket: <@U1> filed *IT-3*.',
    });
  });

  it('names a private card by its response_url', () => {
    const ref = cardRefFromAction(
      {
        container: { type: 'message', channel_id: 'C1', message_ts: '1.1', is_ephemeral: true },
        response_url: 'http://127.0.0.1/respond/1',
      },
      'ticket_card_actions',
    );
    expect(ref).toEqual({ kind: 'ephemeral', responseUrl: 'http://127.0.0.1/respond/1' });
  });

  it('keeps another message’s blocks so only its used buttons are replaced', () => {
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: 'IT-3 is resolved' } },
      { type: 'actions', block_id: 'dm_actions', elements: [] },
    ];
    const ref = cardRefFromAction(
      {
        container: { type: 'message', channel_id: 'D1', message_ts: '2.2' },
        message: { ts: '2.2', text: 'IT-3 is resolved', blocks },
      },
      'dm_actions',
    );
    expect(ref).toEqual({
      kind: 'message',
      channel: 'D1',
      ts: '2.2',
      text: 'IT-3 is resolved',
      blocks,
      actionsBlockId: 'dm_actions',
    });
  });

  it('names nothing for a click in a view', () => {
    expect(cardRefFromAction({ container: { type: 'view' } }, 'b')).toBeUndefined();
  });
});

describe('where a click on a triage card happened', () => {
  const triageTicket = { ...ticket, requester_email: 'ada@acme.example' } as never;

  it('names the triage card, with the requester and the link it showed, so it is rebuilt as one', () => {
    const card = buildTriageCard(triageTicket, {
      requester: { userId: 'U0ADA' },
      slackPermalink: 'https://acme.slack.com/archives/C1/p1',
    });
    const ref = cardRefFromAction(
      {
        container: { type: 'message', channel_id: 'G0AGENTS', message_ts: '5.5' },
        message: { ts: '5.5', ...card },
      },
      'triage_card_actions',
    );
    expect(ref).toEqual({
      kind: 'triage',
      channel: 'G0AGENTS',
      ts: '5.5',
      requesterUserId: 'U0ADA',
      permalink: 'https://acme.slack.com/archives/C1/p1',
    });
  });

  it('names a triage card that showed no Slack requester or link without them', () => {
    const ref = cardRefFromAction(
      {
        container: { type: 'message', channel_id: 'G0AGENTS', message_ts: '5.5' },
        message: { ts: '5.5', ...buildTriageCard(triageTicket) },
      },
      'triage_card_actions',
    );
    expect(ref).toEqual({ kind: 'triage', channel: 'G0AGENTS', ts: '5.5' });
  });
});
