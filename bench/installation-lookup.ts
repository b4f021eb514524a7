/**
 * What finding a request's installation costs (issue 29's per-request `authorize`): the
 * installer's `fetchInstallation` on the Redis store (one HGET, the AES-GCM open and two JSON
 * parses), timed over many lookups with 1 installation kept and with 20, and the open alone.
 *
 * Run: node bench/installation-lookup.ts [--lookups 5000]
 * Needs Redis at REDIS_URL (default redis://127.0.0.1:6379); uses and deletes its own keys only.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Installation } from '@slack/bolt';
import { Redis } from 'ioredis';
import { decodeInstallation, encodeInstallation } from '../src/store/installation-codec.ts';
import { RedisInstallations } from '../src/store/redis-installations.ts';
import { TokenCipher } from '../src/store/token-cipher.ts';

const { values } = parseArgs({ options: { lookups: { type: 'string', default: '5000' } } });
const LOOKUPS = Number(values.lookups);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function installationOf(n: number): Installation {
  const team = `T${String(n).padStart(4, '0')}`;
  return {
    team: { id: team, name: `Acme ${n}` },
    enterprise: { id: 'E0001', name: 'Acme Org' },
    isEnterpriseInstall: false,
    appId: 'A0001',
    tokenType: 'bot',
    bot: {
      token: `xoxb-${team}-${randomUUID()}`,
      scopes: ['chat:write', 'users:read', 'users:read.email', 'commands', 'im:history'],
      id: 'B0001',
      userId: `U0BOT${n}`,
    },
    user: { token: undefined, scopes: undefined, id: 'U0ADMIN' },
  } as Installation;
}

function quantiles(samples: number[]): { p50_us: number; p99_us: number; mean_us: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const us = (ms: number | undefined) => Math.round((ms ?? Number.NaN) * 1000 * 10) / 10;
  const mean = sorted.reduce((sum, each) => sum + each, 0) / sorted.length;
  return { p50_us: us(at(0.5)), p99_us: us(at(0.99)), mean_us: us(mean) };
}

const redis = new Redis(REDIS_URL);
const cipher = new TokenCipher(Buffer.alloc(32, 7));
try {
  for (const kept of [1, 20]) {
    const prefix = `bench:lookup:${randomUUID()}:`;
    const store = new RedisInstallations({ redis, prefix, cipher });
    for (let n = 1; n <= kept; n++) await store.storeInstallation(installationOf(n));
    const samples: number[] = [];
    for (let i = 0; i < LOOKUPS; i++) {
      const n = 1 + (i % kept);
      const started = performance.now();
      await store.fetchInstallation({
        teamId: `T${String(n).padStart(4, '0')}`,
        enterpriseId: 'E0001',
        isEnterpriseInstall: false,
      });
      samples.push(performance.now() - started);
    }
    console.log(JSON.stringify({ installations: kept, fetchInstallation: quantiles(samples) }));
    await redis.del(`${prefix}installations`);
  }
  const text = encodeInstallation(cipher, 'team:T0001', installationOf(1), Date.now());
  const samples: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const started = performance.now();
    decodeInstallation(cipher, 'team:T0001', text);
    samples.push(performance.now() - started);
  }
  console.log(JSON.stringify({ decodeInstallation: quantiles(samples) }));
} finally {
  await redis.quit();
}
