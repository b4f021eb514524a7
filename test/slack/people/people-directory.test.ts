import { describe, expect, it } from 'vitest';
import { PeopleDirectory } from '../../../src/slack/people/people-directory.ts';
import { fakeClient } from '../support/fake-deps.ts';

function directoryOf(profile: Record<string, unknown>) {
  const client = fakeClient({
    users: {
      info: async () => ({ ok: true, user: { real_name: 'Alice Archer', profile } }),
    },
  });
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
