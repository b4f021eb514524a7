/** Refreshing a triage card after a change from its buttons (Slack by nock). */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/servicedesk/index.ts';
import { parseServiceTargets } from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { refreshCard } from '../../../src/slack/cards/card-refresh.ts';
import { silentLogger, TEST_SETTINGS, warningsLogger } from '../support/fake-deps.ts';

const SLACK = 'http://slack.test';
const ticket = {
  id: 'IT-3',
  title: 'Printer',
  status: 'open',
  priority: 'high',
  desk_id: 'it',
  assignee_email: 'bob@acme.example',
  requester_email: 'ada@acme.example',
  created_at: '2026-11-20T09:30:00Z',
} as Ticket;
const actor = { userId: 'U0BOB', email: 'bob@acme.example', isAgent: true };
const card = {
  kind: 'triage' as const,
  channel: 'G0AGENTS',
  ts: '5.5',
  requesterUserId: 'U0ADA',
  permalink: 'https://acme.slack.com/archives/C1/p1',
};

function depsFor() {
  const { logger, warnings } = warningsLogger();
  // The slice refreshCard takes, as it is: its optional parts (desk fields, people) absent.
  const deps: Parameters<typeof refreshCard>[0] = {
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    logger,
    settings: { ...TEST_SETTINGS, dashboardUrl: 'https://desk.acme.example' },
    desks: { peek: () => [{ slug: 'it', name: 'IT Support' }], list: async () => [] },
  };
  return { warnings, deps };
}

describe('a triage card after a change from its buttons', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('is rebuilt as a triage card with the ticket’s new assignee and priority, its buttons kept', async () => {
    const updated: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.update', (body) => {
        updated.push(body as Record<string, string>);
        return true;
      })
      .reply(200, { ok: true });
    await refreshCard(depsFor().deps, card, ticket, actor);
    expect(updated[0]).toMatchObject({ channel: 'G0AGENTS', ts: '5.5' });
    const blocks = updated[0]?.blocks ?? '';
    expect(blocks).toContain('triage_card_actions');
    expect(blocks).toContain('bob@acme.example');
    expect(blocks).toContain('<@U0ADA>');
    expect(blocks).toContain('IT Support');
    expect(blocks).toContain('https://acme.slack.com/archives/C1/p1');
    expect(blocks).toContain('reply_to_requester');
  });

  it('shows the ticket’s clocks as of the app’s clock when it is rebuilt', async () => {
    const updated: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.update', (body) => {
        updated.push(body as Record<string, string>);
        return true;
      })
      .reply(200, { ok: true });
    const { deps } = depsFor();
    const created = Date.parse(ticket.created_at);
    const serviceClocks = () => ({
      targets: parseServiceTargets('it:high=1h/8h').targets,
      warnAt: 0.8,
      // 50 of 60 minutes gone: the first response warns.
      nowMs: created + 50 * 60_000,
    });
    await refreshCard({ ...deps, serviceClocks }, card, ticket, actor);
    const blocks = updated[0]?.blocks ?? '';
    expect(blocks).toContain('triage_card_clocks');
    expect(blocks).toContain(':warning: First response due');
  });

  it('is left as it was, with a warning, when Slack answers the update with a 500', async () => {
    nock(SLACK).post('/api/chat.update').times(2).reply(500, 'oops');
    const { deps, warnings } = depsFor();
    await refreshCard(deps, card, ticket, actor);
    expect(warnings).toEqual(['the card could not be refreshed after a change']);
  });

  it('is left as it was, with a warning, when Slack rate-limits the update', async () => {
    nock(SLACK)
      .post('/api/chat.update')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '5' });
    const { deps, warnings } = depsFor();
    await refreshCard(deps, card, ticket, actor);
    expect(warnings).toEqual(['the card could not be refreshed after a change']);
  });
});
