import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Activity, Message } from '../../../src/contract/schemas.ts';
import { blockTextLength, LIMITS } from '../../../src/slack/builders/mrkdwn.ts';
import type { SlackMessage } from '../../../src/slack/builders/ticket-card-builder.ts';
import {
  buildRequesterNotice,
  buildTicketChangeLine,
  buildTicketMessageParts,
  withoutPersonOffer,
} from '../../../src/slack/builders/ticket-message-builder.ts';

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: 'msg_7',
    ticket_id: 'IT-12',
    body: 'Please restart the dock.',
    created_at: '2026-11-20T09:30:00Z',
    internal: false,
    author: { type: 'agent', name: 'Sam Rivera', email: 'sam.rivera@acme.example' },
    sources: [],
    ...overrides,
  };
}

function change(overrides: Partial<Activity>): Activity {
  return {
    id: 'act_3',
    ticket_id: 'IT-12',
    type: 'status_changed',
    from: 'open',
    to: 'resolved',
    actor: 'sam.rivera@acme.example',
    created_at: '2026-11-20T09:31:00Z',
    ...overrides,
  };
}

const allText = (value: unknown) => JSON.stringify(value);
const sectionTexts = (blocks: readonly KnownBlock[]) =>
  blocks.flatMap((b) => (b.type === 'section' && b.text ? [b.text.text] : []));

/** The one post a short message makes. */
function onePost(...args: Parameters<typeof buildTicketMessageParts>): SlackMessage {
  const parts = buildTicketMessageParts(...args);
  expect(parts).toHaveLength(1);
  return parts[0] as SlackMessage;
}

describe('ticket message builder', () => {
  it('names a human agent and their kind, without buttons', () => {
    const post = onePost('IT-12', message());
    expect(allText(post.blocks)).toContain('*Sam Rivera* · Service desk');
    expect(allText(post.blocks)).toContain('Please restart the dock.');
    expect(post.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(post.text).toBe('Sam Rivera: Please restart the dock.');
  });

  it('labels the AI agent, links its sources and offers a person', () => {
    const post = onePost(
      'IT-12',
      message({
        author: { type: 'ai_agent', name: 'AI Agent', email: null },
        sources: [
          { title: 'Docks & <cables>', url: 'https://kb.acme.example/docks' },
          { title: 'Not a link', url: 'javascript:alert(1)' },
        ],
      }),
    );
    const text = allText(post.blocks);
    expect(text).toContain('*AI Agent* · AI');
    expect(text).toContain('Sources: <https://kb.acme.example/docks|Docks &amp; &lt;cables&gt;>');
    expect(text).not.toContain('javascript:');
    expect(post.blocks.at(-1)).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'talk_to_person',
          text: { type: 'plain_text', text: 'Talk to a person', emoji: true },
          value: 'IT-12',
        },
      ],
    });
    expect(post.text).toBe('AI Agent (AI): Please restart the dock.');
  });

  it('makes platform text ping nobody', () => {
    const post = onePost(
      'IT-12',
      message({
        body: '<!channel> look <@U0001> & <https://evil.example|here>',
        author: { type: 'agent', name: '<!here>', email: null },
      }),
    );
    const text = allText(post);
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<!here>');
    expect(text).not.toContain('<@U0001>');
    expect(text).toContain('&lt;!channel&gt; look &lt;@U0001&gt; &amp;');
  });

  it('splits a long message over sections within Slack’s limits instead of cutting it', () => {
    const body = Array.from({ length: 300 }, (_, i) => `Line ${i}: ${'x'.repeat(20)}`).join('\n');
    const post = onePost('IT-12', message({ body }));
    const sections = sectionTexts(post.blocks);
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) expect(section.length).toBeLessThanOrEqual(3000);
    // Each section keeps the line end it was split after.
    expect(sections.join('')).toBe(body);
    expect(post.text.length).toBeLessThanOrEqual(4000);
  });

  it('posts a 23,000-character message as three numbered parts that give it back whole', () => {
    const body = Array.from({ length: 1000 }, (_, i) => `Step ${i}: check the dock.`)
      .join('\n')
      .padEnd(23_000, ' more');
    const parts = buildTicketMessageParts('IT-12', message({ body }));
    expect(parts).toHaveLength(3);
    parts.forEach((part, i) => {
      expect(allText(part.blocks[0])).toContain(`*Sam Rivera* · Service desk · (${i + 1}/3)`);
      expect(part.text.startsWith(`Sam Rivera (${i + 1}/3): `)).toBe(true);
    });
    expect(parts.flatMap((part) => sectionTexts(part.blocks)).join('')).toBe(body);
  });

  it('keeps every part within the block text one Slack message carries', () => {
    const body = 'word '.repeat(9_000);
    for (const part of buildTicketMessageParts('IT-12', message({ body }))) {
      expect(blockTextLength(part.blocks)).toBeLessThanOrEqual(LIMITS.messageBlockText);
      expect(part.blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
    }
  });

  it('counts an emoji as the two UTF-16 units Slack may count it as', () => {
    const body = '🙂'.repeat(20_000);
    const parts = buildTicketMessageParts('IT-12', message({ body }));
    const sections = parts.flatMap((part) => sectionTexts(part.blocks));
    for (const section of sections) expect(section.length).toBeLessThanOrEqual(3000);
    for (const part of parts) {
      expect(blockTextLength(part.blocks)).toBeLessThanOrEqual(LIMITS.messageBlockText);
    }
    expect(sections.join('')).toBe(body);
  });

  it('puts the AI agent’s sources and button after its last part only', () => {
    const parts = buildTicketMessageParts(
      'IT-12',
      message({
        body: 'x '.repeat(12_000),
        author: { type: 'ai_agent', name: 'AI Agent', email: null },
        sources: [{ title: 'Docks', url: 'https://kb.acme.example/docks' }],
      }),
    );
    expect(parts.length).toBeGreaterThan(1);
    const withButton = parts.filter((part) => part.blocks.some((b) => b.type === 'actions'));
    expect(withButton).toEqual([parts.at(-1)]);
    expect(allText(parts.slice(0, -1))).not.toContain('Sources:');
    expect(allText(parts.at(-1))).toContain('Sources:');
  });

  it('offers no person on an AI message once the requester asked for one, in as many parts', () => {
    const ai = message({
      body: 'x '.repeat(12_000),
      author: { type: 'ai_agent', name: 'AI Agent', email: null },
      sources: [{ title: 'Docks', url: 'https://kb.acme.example/docks' }],
    });
    const offered = buildTicketMessageParts('IT-12', ai);
    const notOffered = buildTicketMessageParts('IT-12', ai, undefined, { offerPerson: false });
    expect(notOffered).toHaveLength(offered.length);
    expect(notOffered.flatMap((part) => part.blocks).some((b) => b.type === 'actions')).toBe(false);
    expect(allText(notOffered.at(-1))).toContain('Sources:');
  });

  it('takes the posted AI answer’s button off to the very blocks of an answer posted without it', () => {
    const ai = message({
      author: { type: 'ai_agent', name: 'AI Agent', email: null },
      sources: [{ title: 'Docks', url: 'https://kb.acme.example/docks' }],
    });
    const [offered] = buildTicketMessageParts('IT-12', ai);
    const [notOffered] = buildTicketMessageParts('IT-12', ai, undefined, { offerPerson: false });
    expect(withoutPersonOffer(offered?.blocks ?? [])).toEqual(notOffered?.blocks);
  });

  it('finds nothing to take off a message that offers no person', () => {
    const [agent] = buildTicketMessageParts('IT-12', message());
    expect(withoutPersonOffer(agent?.blocks ?? [])).toBeUndefined();
  });

  it('says a message too long for ten posts was cut, how much, and links to the whole', () => {
    const body = '🙂'.repeat(20_000) + 'x'.repeat(100_000);
    const parts = buildTicketMessageParts(
      'IT-12',
      message({ body }),
      'https://desk.example/tickets/IT-12',
    );
    expect(parts).toHaveLength(10);
    const shown = parts.flatMap((part) => sectionTexts(part.blocks)).join('');
    const last = JSON.stringify(parts.at(-1)?.blocks.at(-1));
    expect(last).toContain('longer than Slack posts can hold');
    expect(last).toContain(
      `${(body.length - shown.length).toLocaleString('en-US')} more characters`,
    );
    expect(last).toContain(
      '<https://desk.example/tickets/IT-12|Read the whole message on the service desk>',
    );
    expect(body.startsWith(shown)).toBe(true);
    for (const part of parts) {
      expect(blockTextLength(part.blocks)).toBeLessThanOrEqual(LIMITS.messageBlockText);
    }
  });

  it('shows a message without text or author name rather than failing', () => {
    const post = onePost(
      'IT-12',
      message({ body: '   ', author: { type: 'system', name: null, email: null } }),
    );
    expect(allText(post.blocks)).toContain('*System* · System');
    expect(allText(post.blocks)).toContain('(no text)');
  });

  it('writes a status change as one line with the labels and who made it', () => {
    const line = buildTicketChangeLine('IT-12', change({}));
    expect(line.blocks).toHaveLength(1);
    expect(line.blocks[0]?.type).toBe('context');
    expect(line.text).toContain(
      '*IT-12* status: :large_blue_circle: Open → *:white_check_mark: Resolved*',
    );
    expect(line.text).toContain('by sam.rivera@acme.example');
  });

  it('writes priority, assignee and team changes, naming the AI agent when it acted', () => {
    expect(
      buildTicketChangeLine(
        'IT-12',
        change({ type: 'priority_changed', from: 'medium', to: 'high', actor: 'ai_agent' }),
      ).text,
    ).toBe(
      ':triangular_flag_on_post: *IT-12* priority: Medium → *:small_orange_diamond: High* by the AI agent',
    );
    expect(
      buildTicketChangeLine(
        'IT-12',
        change({ type: 'assigned', from: null, to: 'sam.rivera@acme.example', actor: 'api' }),
      ).text,
    ).toBe(':bust_in_silhouette: *IT-12* is assigned to *sam.rivera@acme.example*');
    expect(
      buildTicketChangeLine('IT-12', {
        ...change({ type: 'assigned', from: null, to: 'Hardware' }),
        field: 'team',
      }).text,
    ).toContain('is with *Hardware*');
    expect(
      buildTicketChangeLine(
        'IT-12',
        change({ type: 'assigned', from: 'x@acme.example', to: null, actor: 'api' }),
      ).text,
    ).toBe(':bust_in_silhouette: *IT-12* is no longer assigned');
  });

  it('names the person who made a change as their messages do, not by their email', () => {
    const line = buildTicketChangeLine('IT-12', change({}), {
      'sam.rivera@acme.example': 'Sam Rivera',
    });
    expect(line.text).toMatch(/ by Sam Rivera$/);
    expect(allText(line)).not.toContain('sam.rivera@acme.example');
  });

  it('finds a person’s name whatever the case of the email the platform gives', () => {
    const line = buildTicketChangeLine('IT-12', change({ actor: 'Sam.Rivera@ACME.example' }), {
      'sam.rivera@acme.example': 'Sam Rivera',
    });
    expect(line.text).toMatch(/ by Sam Rivera$/);
  });

  it('names the person a ticket is assigned to rather than showing their email', () => {
    const line = buildTicketChangeLine(
      'IT-12',
      change({ type: 'assigned', from: null, to: 'priya.shah@acme.example', actor: 'api' }),
      { 'priya.shah@acme.example': 'Priya Shah' },
    );
    expect(line.text).toBe(':bust_in_silhouette: *IT-12* is assigned to *Priya Shah*');
  });

  it('escapes a person’s name as it escapes the platform’s text', () => {
    const line = buildTicketChangeLine('IT-12', change({}), {
      'sam.rivera@acme.example': '<!channel> Sam & co',
    });
    expect(line.text).toContain('by &lt;!channel&gt; Sam &amp; co');
  });

  it('escapes a status the platform invented', () => {
    const line = buildTicketChangeLine('IT-12', change({ to: '<!channel>_state' }));
    expect(line.text).not.toContain('<!channel>');
  });

  it('tells the requester their ticket was resolved, with a Reopen button', () => {
    const notice = buildRequesterNotice('IT-12', 'resolved', 'Dock <flickers>');
    expect(notice.text).toContain('*IT-12* · Dock &lt;flickers&gt; was resolved');
    expect(allText(notice.blocks)).toContain('"action_id":"reopen_ticket"');
    expect(allText(notice.blocks)).toContain('"value":"IT-12"');
  });

  it('tells the requester their ticket is closed, offering no reopen', () => {
    const notice = buildRequesterNotice('IT-12', 'closed', undefined);
    expect(notice.text).toContain('Your ticket *IT-12* is closed');
    expect(allText(notice.blocks)).not.toContain('reopen_ticket');
  });
});
