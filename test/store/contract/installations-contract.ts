/**
 * The contract of the OAuth stores (installations and install states), run against memory,
 * Redis and Redis Cluster: Bolt's query semantics, removal, one use per state, and tokens
 * sealed at rest (the stored value holds no token, and opens only with the key).
 */
import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { InstallStores } from '../../../src/store/install-types.ts';
import { TokenCipher } from '../../../src/store/token-cipher.ts';

/** One empty area of a backend for the OAuth stores. */
export interface InstallNamespace {
  /** Stores for replica `n`, with this key. */
  open(replica?: number, cipher?: TokenCipher): InstallStores;
  /** Every stored value, as the backend holds it (what someone reading Redis would see). */
  raw(): Promise<string[]>;
}

/** A backend of the OAuth stores. */
export interface InstallBackend {
  namespace(): InstallNamespace;
}

/** A cipher with a fresh random key. */
export function testCipher(): TokenCipher {
  return new TokenCipher(randomBytes(32));
}

/** A workspace install as Bolt's installer stores it. */
export function workspaceInstall(team: string, token = `xoxb-${team}-secret`): Installation {
  return {
    team: { id: team, name: `Team ${team}` },
    enterprise: undefined,
    user: { token: `xoxp-${team}-user-secret`, scopes: ['identify'], id: 'U0INSTALLER' },
    bot: { token, scopes: ['chat:write', 'im:history'], id: 'B1', userId: 'U0BOT' },
    appId: 'A0001',
    isEnterpriseInstall: false,
    authVersion: 'v2',
    tokenType: 'bot',
  };
}

/** An org-wide install as Bolt's installer stores it. */
export function orgInstall(enterprise: string, token = `xoxb-${enterprise}-secret`): Installation {
  return {
    team: undefined,
    enterprise: { id: enterprise, name: 'Acme Org' },
    user: { token: undefined, scopes: undefined, id: 'U0ADMIN' },
    bot: { token, scopes: ['chat:write'], id: 'B2', userId: 'U0BOT' },
    appId: 'A0001',
    isEnterpriseInstall: true,
    enterpriseUrl: 'https://acme-org.enterprise.slack.com/',
    authVersion: 'v2',
    tokenType: 'bot',
  };
}

/** Runs the contract against `backend`. */
export function describeInstallationsContract(backend: InstallBackend): void {
  describe('installations', () => {
    it('a workspace install is found by its team id, from another replica', async () => {
      const ns = backend.namespace();
      await ns.open(0).installations.storeInstallation(workspaceInstall('T1'));
      const found = await ns.open(1).installations.fetchInstallation({
        teamId: 'T1',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      expect(found.bot?.token).toBe('xoxb-T1-secret');
      expect(found.user.token).toBe('xoxp-T1-user-secret');
    });

    it('an org-wide install is found by its enterprise id, for any of its workspaces', async () => {
      const stores = backend.namespace().open();
      await stores.installations.storeInstallation(orgInstall('E1'));
      const asOrg = await stores.installations.fetchInstallation({
        teamId: undefined,
        enterpriseId: 'E1',
        isEnterpriseInstall: true,
      });
      const asWorkspace = await stores.installations.fetchInstallation({
        teamId: 'T9',
        enterpriseId: 'E1',
        isEnterpriseInstall: false,
      });
      expect(asOrg.bot?.token).toBe('xoxb-E1-secret');
      expect(asWorkspace.bot?.token).toBe('xoxb-E1-secret');
    });

    it('a workspace nobody installed in is not found', async () => {
      const stores = backend.namespace().open();
      await stores.installations.storeInstallation(workspaceInstall('T1'));
      await expect(
        stores.installations.fetchInstallation({
          teamId: 'T2',
          enterpriseId: undefined,
          isEnterpriseInstall: false,
        }),
      ).rejects.toMatchObject({ code: 'STORE_INSTALLATION_NOT_FOUND' });
    });

    it('removing one workspace’s install leaves the others', async () => {
      const stores = backend.namespace().open();
      await stores.installations.storeInstallation(workspaceInstall('T1'));
      await stores.installations.storeInstallation(workspaceInstall('T2'));
      await stores.installations.deleteInstallation({
        teamId: 'T1',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      await expect(
        stores.installations.fetchInstallation({
          teamId: 'T1',
          enterpriseId: undefined,
          isEnterpriseInstall: false,
        }),
      ).rejects.toMatchObject({ code: 'STORE_INSTALLATION_NOT_FOUND' });
      const left = await stores.installations.list();
      expect(left.map((kept) => kept.summary.teamId)).toEqual(['T2']);
    });

    it('lists each installation with its kind, ids and scopes', async () => {
      const stores = backend.namespace().open();
      await stores.installations.storeInstallation(workspaceInstall('T1'));
      await stores.installations.storeInstallation(orgInstall('E1'));
      const summaries = (await stores.installations.list())
        .map((kept) => kept.summary)
        .sort((a, b) => a.kind.localeCompare(b.kind));
      expect(summaries).toMatchObject([
        { kind: 'org', enterpriseId: 'E1', scopes: ['chat:write'] },
        { kind: 'workspace', teamId: 'T1', scopes: ['chat:write', 'im:history'] },
      ]);
    });

    it('a reinstall replaces the token kept for the workspace', async () => {
      const stores = backend.namespace().open();
      await stores.installations.storeInstallation(workspaceInstall('T1', 'xoxb-old'));
      await stores.installations.storeInstallation(workspaceInstall('T1', 'xoxb-new'));
      const found = await stores.installations.fetchInstallation({
        teamId: 'T1',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      expect(found.bot?.token).toBe('xoxb-new');
      expect(await stores.installations.list()).toHaveLength(1);
    });

    it('keeps no token readable at rest', async () => {
      const ns = backend.namespace();
      await ns.open().installations.storeInstallation(workspaceInstall('T1'));
      await ns.open().installations.storeInstallation(orgInstall('E1'));
      const raw = (await ns.raw()).join('\n');
      expect(raw).toContain('T1');
      expect(raw).not.toContain('secret');
      expect(raw).not.toContain('xox');
    });

    it('does not open with another key', async () => {
      const ns = backend.namespace();
      await ns.open(0).installations.storeInstallation(workspaceInstall('T1'));
      await expect(
        ns.open(0, testCipher()).installations.fetchInstallation({
          teamId: 'T1',
          enterpriseId: undefined,
          isEnterpriseInstall: false,
        }),
      ).rejects.toMatchObject({ code: 'STORE_DATA_INVALID' });
    });
  });

  describe('install states', () => {
    it('a state verifies once, on any replica, with the install options it was made with', async () => {
      const ns = backend.namespace();
      const state = await ns
        .open(0)
        .states.generateStateParam({ scopes: ['chat:write'] }, new Date());
      expect(await ns.open(1).states.verifyStateParam(new Date(), state)).toEqual({
        scopes: ['chat:write'],
      });
      await expect(ns.open(0).states.verifyStateParam(new Date(), state)).rejects.toMatchObject({
        code: 'STORE_OAUTH_STATE_INVALID',
      });
    });

    it('a state not signed with the secret is refused', async () => {
      const stores = backend.namespace().open();
      const state = await stores.states.generateStateParam({ scopes: [] }, new Date());
      const [id] = state.split('.');
      await expect(
        stores.states.verifyStateParam(new Date(), `${id}.forged`),
      ).rejects.toMatchObject({
        code: 'STORE_OAUTH_STATE_INVALID',
      });
      await expect(stores.states.verifyStateParam(new Date(), 'nonsense')).rejects.toMatchObject({
        code: 'STORE_OAUTH_STATE_INVALID',
      });
    });
  });
}
