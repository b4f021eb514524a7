import { describe, expect, it } from 'vitest';
import {
  buildChannelModeSet,
  buildChannelModeStatus,
} from '../../../src/slack/builders/channel-mode-builder.ts';

describe('channel mode answers', () => {
  it('names the desk a request channel files to', () => {
    const { text } = buildChannelModeSet('auto', { slug: 'it', name: 'IT' });
    expect(text).toContain('Every new message here now becomes a ticket on the *IT* desk');
  });

  it('escapes a desk name that holds mrkdwn, so it cannot mention or link anyone', () => {
    const { text } = buildChannelModeSet('auto', { slug: 'x', name: '<!channel> *Ops*' });
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('says how to turn it back on once it is off', () => {
    expect(buildChannelModeSet('off', { slug: 'it' }).text).toContain('`/ticket channel auto`');
  });

  it('warns in the status too when the channel’s desk does not exist', () => {
    const { text } = buildChannelModeStatus('auto', 'slack', { slug: 'gone', missing: true });
    expect(text).toContain('routed to desk `gone`');
  });

  it('puts its text in one section block as well', () => {
    const message = buildChannelModeStatus('off', 'none', { slug: undefined });
    expect(message.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: message.text } },
    ]);
  });
});
