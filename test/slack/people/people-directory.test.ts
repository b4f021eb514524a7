import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { PeopleDirectory } from '../../../src/slack/people/people-directory.ts';

function directoryOf(profile: Record<string, unknown>) {
  const client = {
    users: {
      info: async () => ({ ok: true, user: { real_name: 'Alice Archer', profile } }),
    },
  } as unknown as WebClient;
  return new PeopleDirectory({ client, agentEmails: new Set() });
}

describe('people directory', () => {
  it('keeps the pronouns a person put on their Slack profile', async () => {
    const person = await directoryOf({ email: 'alice@acme.example', pronouns: 'she/her' }).person(
      'U0ALICE',
    );
    expect(person).toMatchObject({ name: 'Alice Archer', pronouns: 'she/her' });
  });

  it('leaves the pronouns out when the profile has none', async () => {
    const person = await directoryOf({ email: 'alice@acme.example', pronouns: ' ' }).person(
      'U0ALICE',
    );
    expect(person.pronouns).toBeUndefined();
  });
});
