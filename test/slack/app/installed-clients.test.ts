import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InstalledTokens,
  InstalledWebClient,
  WorkspaceScope,
} from '../../../src/slack/app/installed-clients.ts';
import { createMemoryInstallStores } from '../../../src/store/memory-installations.ts';
import { createMemoryStores } from '../../../src/store/memory-stores.ts';
import { TokenCipher } from '../../../src/store/token-cipher.ts';
import {
  defaultIds,
  type SlackDouble,
  secondIds,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { workspaceInstall } from '../../store/contract/installations-contract.ts';

let double: SlackDouble;
beforeEach(async () => {
  double = await startSlackDouble({ organization: {} });
});
afterEach(async () => {
  await double.close();
});

// The two workspaces installed with the double's own bot tokens.
async function setUp() {
  const install = createMemoryInstallStores({
    cipher: new TokenCipher(randomBytes(32)),
    stateSecret: 'state-secret-0123456789',
  });
  const scope = new WorkspaceScope();
  const tokens = new InstalledTokens({
    scope,
    installations: install.installations,
    claims: createMemoryStores().claims,
  });
  const client = new InstalledWebClient(
    { slackApiUrl: double.apiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } },
    tokens,
  );
  return { install, scope, tokens, client };
}

const first = { token: defaultIds.botToken, workspace: defaultIds.team };
const second = { token: secondIds.botToken, workspace: secondIds.team };

describe('the clients of an app installed by OAuth', () => {
  it('calls Slack with the token of the request’s workspace', async () => {
    const { scope, client } = await setUp();
    await scope.run(second, () => client.auth.test());
    await scope.run(first, () => client.auth.test());
    expect(double.callsTo('auth.test').map((call) => call.tokenOf)).toEqual([
      secondIds.team,
      defaultIds.team,
    ]);
  });

  it('a 429 with Retry-After holds the method in that workspace only', async () => {
    const { scope, client } = await setUp();
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 30 });
    const post = { channel: defaultIds.itHelp, text: 'hello' };
    await expect(scope.run(first, () => client.chat.postMessage(post))).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
    });
    // Held: nothing leaves for the first workspace until Retry-After has passed.
    await expect(scope.run(first, () => client.chat.postMessage(post))).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: expect.any(Number),
    });
    expect(double.callsTo('chat.postMessage')).toHaveLength(1);
    const other = await scope.run(second, () =>
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'hello' }),
    );
    expect(other.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('passes Slack’s 500 to the caller, who retries', async () => {
    const { scope, client } = await setUp();
    double.failNext('auth.test', 'internal_error', { status: 500 });
    await expect(scope.run(first, () => client.auth.test())).rejects.toBeDefined();
    await expect(scope.run(first, () => client.auth.test())).resolves.toMatchObject({ ok: true });
  });

  it('runs work outside a request as a named workspace, with its token', async () => {
    const { install, tokens, client } = await setUp();
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    await install.installations.storeInstallation(
      workspaceInstall(secondIds.team, secondIds.botToken),
    );
    await tokens.runAs({ teamId: secondIds.team }, () => client.auth.test());
    await tokens.runAs({ teamId: defaultIds.team }, () => client.auth.test());
    expect(double.callsTo('auth.test').map((call) => call.tokenOf)).toEqual([
      secondIds.team,
      defaultIds.team,
    ]);
    await expect(tokens.runAs({ teamId: 'T9999' }, () => client.auth.test())).rejects.toMatchObject(
      { code: 'STORE_INSTALLATION_NOT_FOUND' },
    );
  });

  it('outside a request, uses the only installation, and refuses to guess between several', async () => {
    const { install, client, tokens } = await setUp();
    await expect(client.auth.test()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    await install.installations.storeInstallation(
      workspaceInstall(secondIds.team, secondIds.botToken),
    );
    await client.auth.test();
    expect(double.callsTo('auth.test').at(-1)?.tokenOf).toBe(secondIds.team);
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    tokens.forget();
    await expect(client.auth.test()).rejects.toMatchObject({
      code: 'slack_workspace_unknown',
      installations: 2,
    });
  });
});
