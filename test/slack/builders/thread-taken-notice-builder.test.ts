import { describe, expect, it } from 'vitest';
import { blockTextLength, LIMITS } from '../../../src/slack/builders/mrkdwn.ts';
import {
  buildThreadTakenNotice,
  parseTakenMessage,
} from '../../../src/slack/builders/thread-taken-notice-builder.ts';

const taken = { ticketId: 'IT-12', channel: 'C1', ts: '2.2', threadTs: '1.1', userId: 'U1' };

describe('thread-taken notice', () => {
  it('names the thread’s ticket and its title and says replies go to it', () => {
    const notice = buildThreadTakenNotice(taken, 'Printer jams');
    expect(notice.text).toBe('This thread is already IT-12: Printer jams. Replies here go to it.');
    expect(JSON.stringify(notice.blocks)).toContain('*IT-12: Printer jams*');
  });

  it('names the ticket alone when its title is not known', () => {
    expect(buildThreadTakenNotice(taken).text).toBe(
      'This thread is already IT-12. Replies here go to it.',
    );
  });

  it('carries the message in its button so the click can file it for the person told', () => {
    const notice = buildThreadTakenNotice(taken, 'Printer jams');
    const actions = notice.blocks.find((b) => b.type === 'actions');
    const button =
      actions && 'elements' in actions
        ? (actions.elements[0] as { action_id?: string; value?: string })
        : undefined;
    expect(button?.action_id).toBe('file_own_from_message');
    expect(parseTakenMessage(button?.value)).toEqual(taken);
  });

  it('reads a value that is not its own as nothing', () => {
    expect(parseTakenMessage('IT-12')).toBeUndefined();
    expect(parseTakenMessage(JSON.stringify({ ticketId: 'IT-12' }))).toBeUndefined();
  });

  it('escapes a title that would ping a channel and keeps a long one within Slack’s limits', () => {
    const notice = buildThreadTakenNotice(taken, `<!channel> ${'x'.repeat(5_000)}`);
    expect(JSON.stringify(notice)).not.toContain('<!channel>');
    expect(notice.text.length).toBeLessThanOrEqual(LIMITS.messageText);
    expect(blockTextLength(notice.blocks)).toBeLessThanOrEqual(LIMITS.messageBlockText);
  });
});
