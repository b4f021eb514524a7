import { describe, expect, it } from 'vitest';
import {
  buildAgentsRoomNotice,
  buildReplyModal,
  buildSendRefusal,
  buildSentToRequester,
  decodeReplyMetadata,
  readReplyText,
} from '../../../src/slack/builders/triage-reply-builder.ts';
import { REPLY_FIELDS, VIEWS } from '../../../src/slack/ids.ts';
import { blocksProblems, viewProblems } from '../../../tools/slack-double/block-kit-validation.ts';

const metadata = { ticketId: 'IT-7', channel: 'G0AGENTS', threadTs: '100.1' };

describe('the Reply to requester modal', () => {
  it('is a modal Slack accepts, with one multiline text input', () => {
    const view = buildReplyModal(metadata);
    expect(viewProblems(view as never, 'modal')).toEqual([]);
    expect(view.callback_id).toBe(VIEWS.replyToRequester);
    const input = view.blocks.find((b) => b.block_id === REPLY_FIELDS.text.block);
    expect(input).toMatchObject({
      type: 'input',
      element: { type: 'plain_text_input', action_id: REPLY_FIELDS.text.action, multiline: true },
    });
  });

  it('carries the ticket and where the button was clicked, read back on submission', () => {
    const view = buildReplyModal(metadata);
    expect(decodeReplyMetadata(view.private_metadata)).toEqual(metadata);
  });

  it('says the reply is public, from the agent', () => {
    expect(JSON.stringify(buildReplyModal(metadata).blocks)).toContain('public message from you');
  });

  it('reads no metadata from another modal', () => {
    expect(decodeReplyMetadata('{"title":"x"}')).toBeUndefined();
    expect(decodeReplyMetadata('not json')).toBeUndefined();
  });
});

describe('the reply typed in the modal', () => {
  it('is read trimmed', () => {
    const values = {
      [REPLY_FIELDS.text.block]: {
        [REPLY_FIELDS.text.action]: { type: 'plain_text_input', value: '  Restart it \n' },
      },
    };
    expect(readReplyText(values as never)).toBe('Restart it');
  });

  it('is empty when nothing was typed', () => {
    expect(readReplyText({} as never)).toBe('');
  });
});

describe('what agents and others are told privately', () => {
  it('tells a non-agent in a triage thread that it is the agents’ room, with their words', () => {
    const notice = buildAgentsRoomNotice('My laptop <!channel> is slow');
    expect(notice.text).toContain("agents' room");
    expect(blocksProblems(notice.blocks ?? [], '/blocks', 50)).toEqual([]);
    expect(JSON.stringify(notice.blocks)).toContain('My laptop');
    expect(JSON.stringify(notice.blocks)).not.toContain('<!channel>');
  });

  it('names why the shortcut sent nothing, for each reason', () => {
    const reasons = [
      'agents_only',
      'send_agents_only',
      'not_triage_thread',
      'not_own_message',
      'empty',
    ] as const;
    const texts = reasons.map((reason) => buildSendRefusal(reason).text);
    expect(new Set(texts).size).toBe(5);
    expect(texts[3]).toContain('your own message');
  });

  it('says what Send to requester is for when someone who is not an agent uses it', () => {
    const text = buildSendRefusal('send_agents_only').text;
    expect(text).toContain('*Send to requester* is for agents answering from a triage thread');
    expect(text).not.toContain('triage card');
  });

  it('confirms a message sent to the requester, naming the ticket', () => {
    expect(buildSentToRequester('IT-7').text).toContain('*IT-7*');
  });
});
