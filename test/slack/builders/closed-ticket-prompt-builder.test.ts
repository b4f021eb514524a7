import { describe, expect, it } from 'vitest';
import {
  buildClosedTicketPrompt,
  buildFiledFromPrompt,
  buildOthersTicketPrompt,
  buildResolvedFollowUpPrompt,
  parseClosedReply,
  parseFollowUp,
} from '../../../src/slack/builders/closed-ticket-prompt-builder.ts';

const reply = { ticketId: 'IT-4', channel: 'C1', ts: '2.2', threadTs: '1.1' };

describe('closed-ticket prompt', () => {
  it('shows the reply in full with a new-ticket button', () => {
    const prompt = buildClosedTicketPrompt(reply, 'Still broken after the update');
    const all = JSON.stringify(prompt);
    expect(all).toContain('*IT-4* is closed');
    expect(all).toContain('Still broken after the update');
    expect(all).toContain('"action_id":"closed_reply_new_ticket"');
  });

  it('leaves dismissing to Slack’s own “Dismiss message” link, with no Dismiss button beside it', () => {
    for (const prompt of [
      buildClosedTicketPrompt(reply, 'Still broken'),
      buildOthersTicketPrompt(reply, 'Same for me'),
    ])
      expect(JSON.stringify(prompt)).not.toContain('closed_reply_dismiss');
  });

  it('names the filed ticket and where its card is once the prompt’s words are filed', () => {
    expect(buildFiledFromPrompt('IT-22', 'dm').text).toContain('*IT-22* is filed');
    expect(buildFiledFromPrompt('IT-22', 'dm').text).toContain('direct messages');
    expect(buildFiledFromPrompt('IT-22', 'thread').text).toContain('confirmed in this thread');
  });

  it('offers a colleague on someone else’s resolved ticket to file their words as their own', () => {
    const prompt = buildOthersTicketPrompt(reply, 'Same for me on floor 2');
    const all = JSON.stringify(prompt);
    expect(all).toContain('*IT-4* is someone else’s request');
    expect(all).toContain('Same for me on floor 2');
    expect(all).toContain('"action_id":"file_as_own_ticket"');
    expect(all).not.toContain('closed_reply_new_ticket');
  });

  it('carries the reply in its button so the click can file it', () => {
    const prompt = buildClosedTicketPrompt(reply, 'text');
    const actions = prompt.blocks.find((b) => b.type === 'actions');
    const value =
      actions && 'elements' in actions
        ? (actions.elements[0] as { value?: string }).value
        : undefined;
    expect(parseClosedReply(value)).toEqual(reply);
  });

  it('reads a value that is not its own as nothing', () => {
    expect(parseClosedReply('IT-4')).toBeUndefined();
  });

  it('escapes the reply', () => {
    expect(JSON.stringify(buildClosedTicketPrompt(reply, '<!here> fix it'))).not.toContain(
      '<!here>',
    );
  });
});

describe('the question after a direct message soon after a resolution', () => {
  const followUp = { ticketId: 'IT-21', channel: 'D1', ts: '3.3' };

  it('shows the words in full, escaped, with Reopen and File as a new ticket carrying the message', () => {
    const prompt = buildResolvedFollowUpPrompt(followUp, 'VPN <!channel>', 'still broken <!here>');
    const all = JSON.stringify(prompt);
    expect(all).toContain('*IT-21* · VPN &lt;!channel&gt;');
    expect(all).toContain('still broken &lt;!here&gt;');
    expect(all).not.toContain('<!');
    const actions = prompt.blocks.find((b) => b.type === 'actions');
    const buttons = (actions && 'elements' in actions ? actions.elements : []) as {
      action_id?: string;
      text?: { text?: string };
      value?: string;
    }[];
    expect(buttons.map((b) => [b.action_id, b.text?.text])).toEqual([
      ['resolved_follow_up_reopen', 'Reopen IT-21'],
      ['resolved_follow_up_new_ticket', 'File as a new ticket'],
    ]);
    for (const button of buttons) expect(parseFollowUp(button.value)).toEqual(followUp);
  });

  it('reads a value that is not one of its buttons’ as nothing', () => {
    for (const value of [undefined, '', '{', '{"ticketId":"IT-1"}', '[1]', '7']) {
      expect(parseFollowUp(value)).toBeUndefined();
    }
  });
});
