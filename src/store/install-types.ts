/**
 * The stores of Slack installations (OAuth mode): Bolt's `InstallationStore` and `StateStore`
 * with what the app asks besides (listing, for doctor, readiness and background clients).
 * Memory and Redis both pass `test/store/contract/installations-contract.ts`.
 */
import type {
  Installation,
  InstallationQuery,
  InstallationStore,
  InstallURLOptions,
  StateStore,
} from '@slack/bolt';

/** What names an installation, without any token: safe to log and to show. */
export interface InstallationSummary {
  /** `org` for an org-wide install (`is_enterprise_install`), else `workspace`. */
  kind: 'workspace' | 'org';
  teamId: string | undefined;
  enterpriseId: string | undefined;
  /** The bot's scopes as granted. */
  scopes: string[];
  /** When it was stored, ms since the epoch. */
  installedAt: number;
}

/** An installation as kept: its summary and the installation itself (tokens included). */
export interface KeptInstallation {
  summary: InstallationSummary;
  installation: Installation;
}

/** Bolt's installation store, with listing and a removal that always exists. */
export interface InstallationRecords extends InstallationStore {
  /**
   * Bolt's query semantics: an org-wide install is found by its enterprise id (for any of its
   * workspaces); a workspace install by its team id. Throws `InstallationNotFoundError`.
   */
  fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation>;
  /** Removes the installation the query names (the org's for an enterprise install); idempotent. */
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void>;
  /** Every installation, tokens included: for the app's own clients, never for logs. */
  list(): Promise<KeptInstallation[]>;
}

/** Bolt's OAuth state store: each state verifies once, within its lifetime. */
export interface OAuthStateRecords extends StateStore {
  generateStateParam(installOptions: InstallURLOptions, now: Date): Promise<string>;
  verifyStateParam(now: Date, state: string): Promise<InstallURLOptions>;
}

/** Both stores of OAuth mode. */
export interface InstallStores {
  installations: InstallationRecords;
  states: OAuthStateRecords;
}

/** How long an install link's state stays good: Slack's consent screen takes minutes at most. */
export const STATE_TTL_MS = 10 * 60_000;
