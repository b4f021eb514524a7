/**
 * The simulator server of an organization sandbox, over plain HTTP: each workspace's snapshot
 * shows its own people and channels, and an action is done in the workspace it names, by
 * someone who is in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../tools/sandbox/sandbox.ts';
import type { SimulatorSnapshot } from '../../tools/sandbox/simulator-state.ts';
import { defaultIds, secondIds } from '../../tools/slack-double/index.ts';

describe('the simulator server of an organization', () => {
  let sandbox: RunningSandbox;
  let single: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ organization: true });
    single = await startSandbox();
  });

  afterAll(async () => {
    await sandbox?.close();
    await single?.close();
  });

  const act = (body: unknown) =>
    fetch(`${sandbox.url}/api/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const snapshot = async (on: RunningSandbox, query: string) =>
    (await (await fetch(`${on.url}/api/state?${query}`)).json()) as SimulatorSnapshot;

  it('shows Acme EU’s people and channels, its person standing in for someone not in it', async () => {
    const eu = await snapshot(sandbox, `team=${secondIds.team}&as=${defaultIds.alice}`);
    expect(eu.team).toEqual({ id: secondIds.team, name: 'Acme EU' });
    // Sam, in both workspaces, comes first in Acme EU: he stands in for Alice.
    expect(eu.me).toBe(defaultIds.agent);
    expect(eu.identities.map((i) => i.realName)).toEqual(['Sam Rivera', 'Elsa Engel']);
    expect(eu.conversations.map((c) => c.name)).toEqual(['eu-triage', 'acme-all', 'Service Desk']);
    expect(eu.workspaces).toEqual([
      {
        id: defaultIds.team,
        name: 'Acme',
        identities: [defaultIds.alice, defaultIds.bob, defaultIds.agent],
      },
      { id: secondIds.team, name: 'Acme EU', identities: [defaultIds.agent, secondIds.elsa] },
    ]);
    const acme = await snapshot(sandbox, `as=${defaultIds.agent}`);
    expect(acme.team.name).toBe('Acme');
    expect(acme.me).toBe(defaultIds.agent);
  });

  it('offers one workspace, and so no switch, when the sandbox is not an organization', async () => {
    const only = await snapshot(single, `team=${secondIds.team}`);
    expect(only.team.name).toBe('Acme');
    expect(only.workspaces.map((w) => w.name)).toEqual(['Acme']);
  });

  it('acts as Elsa in Acme EU, and refuses her in Acme, where she is not', async () => {
    const inAcme = await act({ type: 'openAppHome', as: secondIds.elsa, tab: 'home' });
    expect(inAcme.status).toBe(400);
    expect(await inAcme.json()).toMatchObject({ ok: false, code: 'unknown_identity' });
    const inEu = await act({
      type: 'openAppHome',
      as: secondIds.elsa,
      tab: 'home',
      team: secondIds.team,
    });
    expect(inEu.status).toBe(200);
    expect(await inEu.json()).toEqual({ ok: true });
  });

  it('refuses an action in a workspace the sandbox does not have', async () => {
    const response = await act({
      type: 'openAppHome',
      as: defaultIds.alice,
      tab: 'home',
      team: 'T9999',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, code: 'invalid_action' });
  });
});
