import { describe, expect, it } from 'vitest';
import {
  buildBreachNotice,
  buildClockWarningLine,
} from '../../../src/slack/builders/clock-warning-builder.ts';

const DUE = Date.parse('2026-11-27T09:10:00.000Z');

describe('clock warning builder', () => {
  it('says a warning with the due time in the reader’s words and who has the ticket', () => {
    const line = buildClockWarningLine(
      'IT-12',
      { kind: 'first_response', level: 'warning', dueAtMs: DUE },
      undefined,
    );
    expect(line.text).toBe(
      `:warning: First response due <!date^${DUE / 1000}^{ago}|2026-11-27 09:10 UTC>: *IT-12* is unassigned`,
    );
    const breach = buildClockWarningLine(
      'IT-12',
      { kind: 'resolution', level: 'breach', dueAtMs: DUE },
      '<@U0SAM>',
    );
    expect(breach.text).toMatch(
      /^:red_circle: Resolution breached: \*IT-12\* is with <@U0SAM> \(due /,
    );
  });

  it('names the ticket with a link to its card and mentions the on-call group in a breach notice', () => {
    const notice = buildBreachNotice(
      {
        id: 'IT-12',
        title: 'VPN <!channel> | down',
        cardLink: 'https://slack.example/archives/C1/p1',
      },
      { kind: 'first_response', dueAtMs: DUE },
      undefined,
      'S0123',
    );
    expect(notice.text).toContain(
      '<https://slack.example/archives/C1/p1|IT-12 · VPN &lt;!channel&gt; / down>',
    );
    expect(notice.text).toContain('unassigned <!subteam^S0123>');
    expect(notice.text).not.toContain('<!channel>');
  });

  it('mentions no group that is not a Slack user group id', () => {
    const notice = buildBreachNotice(
      { id: 'IT-12', title: 'VPN down' },
      { kind: 'first_response', dueAtMs: DUE },
      '<@U0SAM>',
      'here> <!channel',
    );
    expect(notice.text).not.toContain('subteam');
    expect(notice.text).toContain('*IT-12* · VPN down');
    expect(notice.text).toContain('assigned to <@U0SAM>');
  });
});
