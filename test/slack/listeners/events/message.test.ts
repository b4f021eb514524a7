import { describe, expect, it } from 'vitest';
import { mayBeTicketThread } from '../../../../src/slack/listeners/events/message.ts';

const APP = 'U0BOT';

describe('threads the links do not know', () => {
  it('looks up a channel thread whose parent is the app’s card', () => {
    expect(mayBeTicketThread({ channel_type: 'channel', parent_user_id: APP }, APP)).toBe(true);
  });

  it('looks up any thread of the app’s direct messages, where the notice is a reply', () => {
    expect(mayBeTicketThread({ channel_type: 'im', parent_user_id: 'U1' }, APP)).toBe(true);
  });

  it('never looks up a channel thread a person started', () => {
    expect(mayBeTicketThread({ channel_type: 'channel', parent_user_id: 'U1' }, APP)).toBe(false);
  });

  it('never looks up a thread while the app’s own user is not known', () => {
    expect(mayBeTicketThread({ channel_type: 'im', parent_user_id: APP }, undefined)).toBe(false);
  });
});
