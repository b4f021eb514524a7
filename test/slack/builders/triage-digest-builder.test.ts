import { describe, expect, it } from 'vitest';
import { buildTriageDigest } from '../../../src/slack/builders/triage-digest-builder.ts';
import { blocksProblems } from '../../../tools/slack-double/block-kit-validation.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';

const summary = {
  open: 12,
  unassigned: 2,
  breached: 1,
  dueToday: 3,
  oldestUnassigned: [
    ticketWith({ id: 'IT-1', title: 'VPN <!channel> drops', created_at: '2026-11-27T08:00:00Z' }),
    ticketWith({ id: 'IT-2', title: 'Printer *jam*', created_at: '2026-11-28T08:00:00Z' }),
  ],
};
const view = {
  summary,
  dayLabel: 'Monday 30 November',
  scope: 'IT',
  links: new Map([
    ['IT-1', 'https://acme.slack.example/archives/C1/p1700000000000100'],
    ['IT-2', undefined],
  ]),
};

describe('buildTriageDigest', () => {
  it('says the four figures in its fallback text and its fields', () => {
    const digest = buildTriageDigest(view);
    expect(digest.text).toBe(
      'Morning summary for Monday 30 November: 12 open, 2 unassigned, 1 breached, 3 due today.',
    );
    const fields = JSON.stringify(digest.blocks);
    for (const name of ['*Open*\\n12', '*Unassigned*\\n2', 'Breached*\\n:red_circle: 1']) {
      expect(fields).toContain(name);
    }
  });

  it('links the oldest unassigned to their thread, and names one without a link', () => {
    const text = JSON.stringify(buildTriageDigest(view).blocks);
    expect(text).toContain('<https://acme.slack.example/archives/C1/p1700000000000100|IT-1>');
    expect(text).toContain('*IT-2*');
  });

  it('escapes ticket titles so none pings a channel', () => {
    const text = JSON.stringify(buildTriageDigest(view).blocks);
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('says every ticket has an assignee when none is unassigned', () => {
    const digest = buildTriageDigest({
      ...view,
      summary: { ...summary, unassigned: 0, oldestUnassigned: [] },
    });
    expect(JSON.stringify(digest.blocks)).toContain('Every open ticket has an assignee');
  });

  it('marks the figures as lower bounds when the lists were cut', () => {
    const digest = buildTriageDigest({ ...view, partial: true });
    expect(digest.text).toContain('12+ open');
  });

  it('is valid Block Kit', () => {
    expect(blocksProblems(buildTriageDigest(view).blocks, '/blocks', 50)).toEqual([]);
  });
});
