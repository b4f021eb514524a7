import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildAppHome, HOME_LIST_MAX } from '../../../src/slack/builders/app-home-builder.ts';

const ticket = (n: number, extra: Partial<Ticket> = {}): Ticket => ({
  id: `IT-${n}`,
  title: `Ticket ${n}`,
  status: 'open',
  priority: 'medium',
  created_at: '2026-11-20T09:30:00Z',
  ...extra,
});
const text = (value: unknown) => JSON.stringify(value);

describe('App Home', () => {
  it('lists the open tickets with their status under a New ticket button', () => {
    const home = buildAppHome(
      { kind: 'tickets', tickets: [ticket(1, { status: 'in_progress' }), ticket(2)] },
      undefined,
    );
    expect(home.type).toBe('home');
    const all = text(home);
    expect(all).toContain('"action_id":"new_ticket_button"');
    expect(all).toContain('*Your open tickets* (2)');
    expect(all).toContain('*IT-1* · Ticket 1\\n:hammer_and_wrench: In progress');
    expect(all).toContain('*IT-2* · Ticket 2');
  });

  it('offers Request something beside New ticket, even when the platform is not answering', () => {
    const all = text(buildAppHome({ kind: 'unavailable' }, undefined).blocks);
    expect(all).toContain('"action_id":"request_something_button"');
    expect(all).toContain('Request something');
  });

  it('says so when the person has no open ticket', () => {
    expect(text(buildAppHome({ kind: 'tickets', tickets: [] }, undefined))).toContain(
      'You have no open tickets.',
    );
  });

  it('still offers New ticket when the platform is not answering', () => {
    const all = text(buildAppHome({ kind: 'unavailable' }, undefined));
    expect(all).toContain('not answering');
    expect(all).toContain('new_ticket_button');
  });

  it('keeps a long list inside the Home view’s block limit', () => {
    const tickets = Array.from({ length: 150 }, (_, i) => ticket(i + 1));
    const home = buildAppHome({ kind: 'tickets', tickets }, undefined);
    expect(home.blocks.length).toBeLessThanOrEqual(100);
    expect(text(home)).toContain(`…and ${150 - HOME_LIST_MAX} more.`);
  });

  it('makes a ticket titled <!channel> ping nobody', () => {
    const all = text(
      buildAppHome({ kind: 'tickets', tickets: [ticket(1, { title: '<!channel>' })] }, undefined),
    );
    expect(all).not.toContain('<!channel>');
  });

  it('says the desk is busy and when to look again, with nothing to show yet', () => {
    const all = text(
      buildAppHome({ kind: 'busy', reason: 'budget', retryInMs: 40_000 }, undefined),
    );
    expect(all).toContain('The service desk is busy; try again in about 40 s.');
    expect(all).toContain('"action_id":"new_ticket_button"');
  });

  it('marks a list read earlier with its age and why it is not fresher', () => {
    const all = text(
      buildAppHome(
        {
          kind: 'tickets',
          tickets: [ticket(1)],
          asOf: { ageMs: 120_000, reason: 'fair_share', retryInMs: 6_000 },
        },
        undefined,
      ),
    );
    expect(all).toContain('As the app last read them, 2 min ago.');
    expect(all).toContain('*IT-1* · Ticket 1');
  });
});
