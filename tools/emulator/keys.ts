/**
 * Access keys of the emulator: which tenant each key belongs to and whether it may write.
 * The demo keys are documented (README, CLI banner); EMULATOR_KEYS replaces them.
 */
import { EmulatorConfigError } from './errors.ts';

/** A key's role: Read + Write, or Read only (docs/platform-contract.md, "Behaviour"). */
export type KeyRole = 'rw' | 'ro';

/** One access key. */
export interface AccessKey {
  readonly tenant: string;
  readonly role: KeyRole;
  readonly key: string;
}

/** The documented demo keys: acme with a Read + Write and a Read key, globex with Read + Write. */
export const DEMO_KEYS: readonly AccessKey[] = [
  { tenant: 'acme', role: 'rw', key: 'sd_acme_rw' },
  { tenant: 'acme', role: 'ro', key: 'sd_acme_ro' },
  { tenant: 'globex', role: 'rw', key: 'sd_globex_rw' },
];

// A tenant name doubles as a host label under variant A, so it must be one.
const TENANT_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const KEY_VALUE = /^[A-Za-z0-9_.~+/=-]{4,200}$/;

/**
 * Parses EMULATOR_KEYS (`tenant:rw|ro:key,...`). Errors name the entry by position and never
 * echo it, because the entry holds a secret.
 */
export function parseKeys(raw: string): AccessKey[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) {
    throw new EmulatorConfigError('EMULATOR_KEYS is empty: expected tenant:rw|ro:key[,...]');
  }
  const seen = new Set<string>();
  return entries.map((entry, index) => {
    const where = `EMULATOR_KEYS entry ${index + 1}`;
    const parts = entry.split(':');
    if (parts.length !== 3) {
      throw new EmulatorConfigError(`${where} is malformed: expected tenant:rw|ro:key`);
    }
    const [tenant = '', role = '', key = ''] = parts;
    if (!TENANT_NAME.test(tenant)) {
      throw new EmulatorConfigError(
        `${where}: the tenant must be a lower-case host label (a-z, 0-9, -)`,
      );
    }
    if (role !== 'rw' && role !== 'ro') {
      throw new EmulatorConfigError(`${where}: the role must be rw or ro`);
    }
    if (!KEY_VALUE.test(key)) {
      throw new EmulatorConfigError(`${where}: the key must be 4 to 200 URL-safe characters`);
    }
    if (seen.has(key)) throw new EmulatorConfigError(`${where}: the key repeats an earlier entry`);
    seen.add(key);
    return { tenant, role, key };
  });
}

/** The keys to use: EMULATOR_KEYS when set, else the demo keys. */
export function keysFromEnv(env: Readonly<Record<string, string | undefined>>): AccessKey[] {
  const raw = env.EMULATOR_KEYS;
  return raw === undefined || raw.trim() === '' ? [...DEMO_KEYS] : parseKeys(raw);
}

/** A key as a banner may show it: demo keys in full (they are documented), others hidden. */
export function describeKey(key: AccessKey): string {
  const isDemo = DEMO_KEYS.some((demo) => demo.key === key.key);
  return `${key.tenant}/${key.role}=${isDemo ? key.key : '(custom key, not shown)'}`;
}
