import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;

describe('users and usergroups in the Slack double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  it('lists the private channels the bot is in, by users.conversations', async () => {
    const answer = await callApi(double, 'users.conversations', {
      types: 'private_channel',
      exclude_archived: true,
    });
    const channels = answer.channels as { id: string; is_private: boolean }[];
    expect(channels.map((c) => c.id)).toContain(ids.agentsPrivate);
    expect(channels.every((c) => c.is_private)).toBe(true);
  });

  it('lists public channels only by default, and pages them with a cursor', async () => {
    type Listed = { id: string; is_private: boolean };
    const types = 'public_channel,private_channel';
    const whole = (await callApi(double, 'users.conversations', { types })).channels as Listed[];
    const paged: Listed[] = [];
    let cursor: string | undefined;
    do {
      const page = await callApi(double, 'users.conversations', { types, limit: 1, cursor });
      paged.push(...(page.channels as Listed[]));
      cursor = (page.response_metadata as { next_cursor: string }).next_cursor || undefined;
    } while (cursor);
    expect(whole.length).toBeGreaterThan(1);
    expect(paged.map((c) => c.id)).toEqual(whole.map((c) => c.id));
    const byDefault = (await callApi(double, 'users.conversations', {})).channels as Listed[];
    expect(byDefault.length).toBeGreaterThan(0);
    expect(byDefault.some((c) => c.is_private)).toBe(false);
  });

  it('describes a person with real name and email', async () => {
    const answer = await callApi(double, 'users.info', { user: ids.alice });
    expect(answer.user).toMatchObject({
      id: ids.alice,
      real_name: 'Alice Archer',
      is_bot: false,
      profile: { email: 'alice@acme.example', real_name: 'Alice Archer' },
    });
  });

  it('describes a user whose email is hidden without one', async () => {
    const answer = await callApi(double, 'users.info', { user: ids.noEmail });
    expect((answer.user as { profile: Record<string, unknown> }).profile.email).toBeUndefined();
  });

  it('describes a bot user as a bot', async () => {
    const answer = await callApi(double, 'users.info', { user: ids.otherBot });
    expect(answer.user).toMatchObject({ is_bot: true, profile: { bot_id: 'B0DEPLOY' } });
  });

  it('answers user_not_found for an unknown user', async () => {
    const answer = await callApi(double, 'users.info', { user: 'U0NOBODY' });
    expect(answer).toEqual({ ok: false, error: 'user_not_found' });
  });

  it('finds a user by email whatever its case', async () => {
    const answer = await callApi(double, 'users.lookupByEmail', {
      email: 'Sam.Rivera@ACME.example',
    });
    expect((answer.user as { id: string }).id).toBe(ids.agent);
  });

  it('answers users_not_found for an email nobody has', async () => {
    const answer = await callApi(double, 'users.lookupByEmail', { email: 'nobody@acme.example' });
    expect(answer).toEqual({ ok: false, error: 'users_not_found' });
  });

  it('lists the agents user group', async () => {
    const answer = await callApi(double, 'usergroups.users.list', { usergroup: ids.agentsGroup });
    expect(answer).toEqual({ ok: true, users: [ids.agent] });
  });

  it('answers no_such_subteam for an unknown user group', async () => {
    const answer = await callApi(double, 'usergroups.users.list', { usergroup: 'S0NOPE' });
    expect(answer.error).toBe('no_such_subteam');
  });

  it('serves a seeded workspace instead of the default one', async () => {
    const seeded = await startSlackDouble({
      seed: {
        users: [{ id: 'U0ZOE', name: 'zoe', realName: 'Zoe Zed', email: 'zoe@acme.example' }],
      },
    });
    try {
      const zoe = await callApi(seeded, 'users.lookupByEmail', { email: 'zoe@acme.example' });
      const alice = await callApi(seeded, 'users.info', { user: ids.alice });
      expect((zoe.user as { id: string }).id).toBe('U0ZOE');
      expect(alice.error).toBe('user_not_found');
    } finally {
      await seeded.close();
    }
  });
});
