/**
 * What the Redis backend must do on one server and on a Cluster alike, beyond the contract
 * every backend passes: its key layout, scripts that touch only the keys they are given, and a
 * watch that outlives a dropped connection.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { migrateRedisKeys } from '../../src/store/redis-migrate.ts';
import { createRedisStores } from '../../src/store/redis-stores.ts';
import type { MirrorRecord, Outbox, ReservedEntry } from '../../src/store/types.ts';
import { fakeClock } from './contract/harness.ts';
import { hashTag, type RedisTestBed } from './redis-backend.ts';

function reserved(entry: ReservedEntry | undefined): ReservedEntry {
  if (!entry) throw new Error('expected an entry');
  return entry;
}

function mirrorState(now: number): MirrorRecord {
  return {
    activityCursor: 1,
    messageCursor: 0,
    messagesAnnounced: 0,
    lastActivityAt: now,
    lastAnswerAt: 0,
    lastPolledAt: now,
    backoffStep: 0,
    status: 'new',
    settledAt: undefined,
    requesterEmail: undefined,
    ticket: undefined,
    firstResponseAt: 0,
    slackWriteAt: 0,
    hintedAt: 0,
    messageHintedAt: 0,
    announcedAt: 0,
  };
}

/** One command a node ran, as MONITOR reports it. */
interface Monitored {
  args: string[];
  /** `lua` for a command a script ran, else the client's address. */
  source: string;
}

/** Registers the Redis-only suites against a test bed. */
export function describeRedisContract(bed: RedisTestBed): void {
  describe('key layout', () => {
    it('claim, outbox and link keys start with the prefix and carry it in their hash tag', async () => {
      const clock = fakeClock();
      const prefix = bed.nextPrefix();
      const stores = createRedisStores({ redis: bed.connection(0), prefix, now: clock.now });
      const held = await stores.claims.claim('A1:T1:Ev1', 30_000);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      await stores.outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      await stores.outbox.enqueue('view:V2', 'createTicket', { title: 'Mail' });
      await stores.outbox.enqueue('view:V3', 'createTicket', { title: 'Disk' });
      const done = await stores.outbox.reserve('w', 30_000);
      const failed = await stores.outbox.reserve('w', 30_000);
      await stores.outbox.reserve('w', 30_000);
      if (!done || !failed) throw new Error('expected entries');
      await stores.outbox.complete(done, { ticketId: 'IT-1' });
      await stores.outbox.fail(failed, 'HTTP 422');
      await stores.links.link('IT-1', { channel: 'C1', threadTs: '1.2' });

      const keys = (await bed.keysUnder(prefix)).map((key) => key.slice(prefix.length));
      const p = prefix;
      expect(keys.sort()).toEqual([
        'claim:{A1:T1:Ev1}',
        `{${p}links}:thread:["C1","1.2"]`,
        `{${p}links}:ticket:IT-1`,
        `{${p}outbox}:all`,
        `{${p}outbox}:dead`,
        `{${p}outbox}:delivery:view:V1`,
        `{${p}outbox}:delivery:view:V2`,
        `{${p}outbox}:delivery:view:V3`,
        `{${p}outbox}:entries`,
        `{${p}outbox}:leased`,
        `{${p}outbox}:seq`,
      ]);
      expect(keys.map(hashTag)).not.toContain(undefined);
    });

    it('budget, schedule and feed keys carry the prefix in their hash tag, mirror keys the ticket', async () => {
      const clock = fakeClock();
      const prefix = bed.nextPrefix();
      const stores = createRedisStores({ redis: bed.connection(0), prefix, now: clock.now });
      await stores.budget.take('interactive');
      await stores.budget.backOff(clock.now() + 1_000);
      await stores.schedule.pollAt('IT-1', clock.now());
      await stores.schedule.claimDue(1, 30_000);
      await stores.mirror.saveState('IT-1', mirrorState(clock.now()));
      await stores.mirror.claimPost('IT-1', 'msg_1', 30_000);
      await stores.mirror.rememberOwn('IT-1', ['id:msg_2']);
      await stores.feed.saveState({ scannedAt: clock.now(), data: { cursor: 1 } });
      const facts = { deskId: 'it', createdAt: clock.now(), updatedAt: clock.now() };
      await stores.feed.noteFacts(new Map([['IT-1', facts]]));

      const keys = (await bed.keysUnder(prefix)).map((key) => key.slice(prefix.length));
      const p = prefix;
      expect(keys.sort()).toEqual([
        'mirror:{IT-1}:own',
        'mirror:{IT-1}:posts',
        'mirror:{IT-1}:state',
        `{${p}budget}:log`,
        `{${p}budget}:state`,
        `{${p}feed}:facts`,
        `{${p}feed}:state`,
        `{${p}poll}:due`,
        `{${p}poll}:leases`,
      ]);
    });
  });

  describe('triage channels', () => {
    it('live in one hash that carries the prefix in its hash tag', async () => {
      const prefix = bed.nextPrefix();
      const stores = createRedisStores({ redis: bed.connection(0), prefix });
      await stores.triageChannels.set('it', 'C0ITTRIAGE');
      await stores.triageChannels.set('*', 'C0CATCH');
      const keys = await bed.keysUnder(prefix);
      expect(keys).toEqual([`${prefix}{${prefix}triage}:channels`]);
      expect(keys.map(hashTag)).toEqual([`${prefix}triage`]);
    });

    it('never write the defaults, so a changed DESK_TRIAGE_CHANNELS applies on restart', async () => {
      const prefix = bed.nextPrefix();
      const redis = bed.connection(0);
      const before = createRedisStores({
        redis,
        prefix,
        triageDefaults: new Map([['it', 'C0OLD']]),
      });
      expect(await before.triageChannels.channelFor('it')).toBe('C0OLD');
      expect(await bed.keysUnder(prefix)).toEqual([]);
      const after = createRedisStores({
        redis,
        prefix,
        triageDefaults: new Map([['it', 'C0NEW']]),
      });
      expect(await after.triageChannels.channelFor('it')).toBe('C0NEW');
    });
  });

  describe('conversation homes', () => {
    it('live in one hash that carries the prefix in its hash tag', async () => {
      const prefix = bed.nextPrefix();
      const stores = createRedisStores({ redis: bed.connection(0), prefix });
      await stores.homes.note('C0ITHELP', 'T0001');
      await stores.homes.adopt(['C0AGENTS'], 'T0001');
      await stores.homes.note('C0EUHELP', 'T0002');
      const keys = await bed.keysUnder(prefix);
      expect(keys).toEqual([`${prefix}{${prefix}homes}:ids`]);
      expect(keys.map(hashTag)).toEqual([`${prefix}homes`]);
      await stores.homes.forget('T0001');
      await stores.homes.forget('T0002');
      expect(await bed.keysUnder(prefix)).toEqual([]);
    });
  });

  describe('scripts', () => {
    it('every key a script touches is one it was given, and every script is checked', async () => {
      const redis = bed.connection(0);
      const prefix = bed.nextPrefix();
      const define = vi.spyOn(redis, 'defineCommand');
      const clock = fakeClock();
      const stores = createRedisStores({ redis, prefix, now: clock.now, deadLetterCap: 1 });
      const definitions = [...define.mock.calls];
      define.mockRestore();
      // The scripts by what MONITOR shows of them: EVALSHA's digest, or EVAL's quoted text.
      const scripts = new Map<string, string>();
      for (const [name, { lua }] of definitions) {
        scripts.set(createHash('sha1').update(lua).digest('hex'), name);
        scripts.set(monitorQuoted(lua), name);
      }
      const names = new Set(scripts.values());
      expect(names.size).toBeGreaterThan(20);

      const monitors = await Promise.all(bed.nodes().map((node) => watchNode(node)));
      try {
        await everyScript(stores, clock);
      } finally {
        for (const monitor of monitors) await monitor.stop();
      }

      const keyPositions = new Map<string, (args: string[]) => string[]>();
      const keysOf = async (args: string[]): Promise<string[]> => {
        const name = (args[0] ?? '').toLowerCase();
        let positions = keyPositions.get(name);
        if (!positions) {
          const [info] = (await redis.call('COMMAND', 'INFO', name)) as unknown[][];
          const [first, last, step] = [Number(info?.[3]), Number(info?.[4]), Number(info?.[5])];
          positions = (a) => {
            if (!first) return [];
            const end = last < 0 ? a.length + last : last;
            const keys: string[] = [];
            for (let i = first; i <= end; i += step) keys.push(a[i] ?? '');
            return keys;
          };
          keyPositions.set(name, positions);
        }
        return positions(args);
      };

      const seen = new Set<string>();
      const undeclared: string[] = [];
      let scriptCommands = 0;
      for (const monitor of monitors) {
        let running: { name: string; keys: Set<string> } | undefined;
        for (const { args, source } of monitor.commands) {
          const command = (args[0] ?? '').toLowerCase();
          if (source !== 'lua') {
            running = undefined;
            if (command !== 'evalsha' && command !== 'eval') continue;
            const declared = args.slice(3, 3 + Number(args[2]));
            const name = scripts.get(args[1] ?? '');
            // Only this test's scripts: other files may share the server.
            if (!name || !declared.every((key) => key.startsWith(prefix))) continue;
            seen.add(name);
            running = { name, keys: new Set(declared) };
            continue;
          }
          if (!running) continue;
          scriptCommands += 1;
          for (const key of await keysOf(args)) {
            if (!running.keys.has(key)) undeclared.push(`${running.name}: ${command} ${key}`);
          }
        }
      }
      expect(undeclared).toEqual([]);
      expect([...seen].sort()).toEqual([...names].sort());
      expect(scriptCommands).toBeGreaterThan(0);
    });
  });

  describe('migrating from the earlier layout', () => {
    const CREATED = 1_700_000_000_000;

    /** Writes what the stores of the earlier layout left: a queue, a dead letter, links. */
    async function writeEarlierLayout(prefix: string): Promise<void> {
      const redis = bed.connection(0);
      const o = `${prefix}{outbox}:`;
      await redis.set(`${o}seq`, '2');
      await redis.hset(`${o}entry:000000000002`, {
        deliveryKey: 'view:V2',
        kind: 'createTicket',
        payload: '{"title":"Mail","empty":[]}',
        attempts: '1',
        createdAt: String(CREATED),
        nextAttemptAt: String(CREATED + 5_000),
        lastError: 'HTTP 503',
        rememberMs: '86400000',
      });
      await redis.zadd(`${o}due`, CREATED + 5_000, '000000000002');
      await redis.zadd(`${o}all`, CREATED, '000000000002');
      await redis.hset(`${o}delivery:view:V2`, { state: 'pending', id: '000000000002' });
      await redis.hset(`${o}delivery:view:V1`, {
        state: 'failed',
        id: '000000000001',
        error: 'HTTP 422',
        expiresAt: String(CREATED + 86_400_000),
      });
      await redis.pexpire(`${o}delivery:view:V1`, 3_600_000);
      await redis.lpush(
        `${o}dead`,
        JSON.stringify({
          id: '000000000001',
          deliveryKey: 'view:V1',
          kind: 'createTicket',
          payload: { title: 'VPN', empty: {} },
          attempts: 3,
          createdAt: CREATED,
          failedAt: CREATED + 1_000,
          error: 'HTTP 422',
        }),
      );
      await redis.set(`${prefix}{links}:thread:["C1","1.2"]`, 'IT-1');
      await redis.zadd(`${prefix}{links}:ticket:IT-1`, CREATED, '["C1","1.2"]');
      await redis.zadd(`${prefix}{poll}:due`, CREATED + 60_000, 'IT-1');
      await redis.zadd(`${prefix}{budget}:log`, CREATED, 'r1');
      await redis.pexpire(`${prefix}{budget}:log`, 3_600_000);
    }

    it('a queued entry of the earlier layout is reserved with all it had after the move', async () => {
      const prefix = bed.nextPrefix();
      await writeEarlierLayout(prefix);
      const report = await migrateRedisKeys({ redis: bed.connection(0), prefix });
      expect(report).toMatchObject({ entries: 1, deadLetters: 1, kept: [] });
      const clock = fakeClock(CREATED + 5_000);
      const { outbox } = createRedisStores({ redis: bed.connection(1), prefix, now: clock.now });
      expect(await outbox.stats()).toMatchObject({ depth: 1, oldestAgeMs: 5_000 });
      expect(await outbox.reserve('w', 30_000)).toMatchObject({
        id: '000000000002',
        deliveryKey: 'view:V2',
        payload: { title: 'Mail', empty: [] },
        attempts: 1,
        createdAt: CREATED,
        lastError: 'HTTP 503',
      });
      expect((await outbox.enqueue('view:V3', 'createTicket', {})).id).toBe('000000000003');
    });

    it('a dead letter of the earlier layout can be read and retried after the move', async () => {
      const prefix = bed.nextPrefix();
      await writeEarlierLayout(prefix);
      await migrateRedisKeys({ redis: bed.connection(0), prefix });
      const clock = fakeClock(CREATED + 2_000);
      const { outbox } = createRedisStores({ redis: bed.connection(1), prefix, now: clock.now });
      expect(await outbox.deadLetters()).toEqual([
        {
          id: '000000000001',
          deliveryKey: 'view:V1',
          kind: 'createTicket',
          payload: { title: 'VPN', empty: {} },
          attempts: 3,
          createdAt: CREATED,
          failedAt: CREATED + 1_000,
          error: 'HTTP 422',
        },
      ]);
      expect(await outbox.enqueue('view:V1', 'createTicket', {})).toMatchObject({
        state: 'failed',
      });
      expect(await outbox.retryDeadLetter('000000000001')).toBe('requeued');
    });

    it('links, the poll schedule and delivery records keep their values and time to live', async () => {
      const prefix = bed.nextPrefix();
      await writeEarlierLayout(prefix);
      await migrateRedisKeys({ redis: bed.connection(0), prefix });
      const stores = createRedisStores({ redis: bed.connection(1), prefix });
      expect(await stores.links.ticketForThread('C1', '1.2')).toBe('IT-1');
      expect(await stores.links.threadsForTicket('IT-1')).toEqual([
        { channel: 'C1', threadTs: '1.2' },
      ]);
      expect(await stores.schedule.dueAt('IT-1')).toBe(CREATED + 60_000);
      const ttl = await bed.connection(0).pttl(`${prefix}{${prefix}outbox}:delivery:view:V1`);
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
      const earlier = (await bed.keysUnder(`${prefix}{`)).filter(
        (key) => !key.startsWith(`${prefix}{${prefix}`),
      );
      expect(earlier).toEqual([]);
    });

    it('a second run finds nothing left to move', async () => {
      const prefix = bed.nextPrefix();
      await writeEarlierLayout(prefix);
      await migrateRedisKeys({ redis: bed.connection(0), prefix });
      expect(await migrateRedisKeys({ redis: bed.connection(0), prefix })).toEqual({
        moved: 0,
        entries: 0,
        deadLetters: 0,
        kept: [],
      });
    });

    it('a key the new layout already holds is kept in both places and reported', async () => {
      const prefix = bed.nextPrefix();
      await writeEarlierLayout(prefix);
      // The new version ran before the move and queued an entry of its own.
      const { outbox } = createRedisStores({ redis: bed.connection(0), prefix });
      await outbox.enqueue('view:V9', 'createTicket', {});
      const report = await migrateRedisKeys({ redis: bed.connection(0), prefix });
      expect(report.kept).toEqual(
        expect.arrayContaining([`${prefix}{outbox}:seq`, `${prefix}{outbox}:all`]),
      );
      expect(await bed.connection(0).get(`${prefix}{outbox}:seq`)).toBe('2');
      expect(await bed.connection(0).get(`${prefix}{${prefix}outbox}:seq`)).toBe('1');
    });
  });

  describe('watching the outbox', () => {
    // Enqueues probes until the watch hears one (a subscription takes a moment), for at most 5 s.
    async function heardWithin(outbox: Outbox, heard: () => number, tag: string): Promise<void> {
      const before = heard();
      const deadline = Date.now() + 5_000;
      for (let probe = 0; heard() === before; probe++) {
        if (Date.now() > deadline) throw new Error(`the watch heard nothing (${tag})`);
        await outbox.enqueue(`probe:${tag}:${probe}`, 'probe', {});
        await sleep(20);
      }
    }

    // The watch's connections on every node: named after the channel (a Cluster's subscriber
    // connection has ioredis's own words before the name).
    async function watchClients(name: string): Promise<{ node: Redis; id: string }[]> {
      const found: { node: Redis; id: string }[] = [];
      for (const node of bed.nodes()) {
        const list = String(await node.client('LIST'));
        for (const line of list.split('\n')) {
          const client = /^id=(\d+) .* name=(\S*) /.exec(line);
          if (client?.[1] && client[2]?.endsWith(name)) found.push({ node, id: client[1] });
        }
      }
      return found;
    }

    it('a watch hears new entries again after Redis drops its connections', async () => {
      const prefix = bed.nextPrefix();
      const { outbox } = createRedisStores({ redis: bed.connection(0), prefix });
      let heard = 0;
      const stop = outbox.watch(() => {
        heard += 1;
      });
      await heardWithin(outbox, () => heard, 'before');
      const name = `watch:${prefix}{${prefix}outbox}:enqueued`;
      const before = await watchClients(name);
      if (before.length === 0)
        throw new Error('the watch connection is not named after its channel');
      for (const { node, id } of before) await node.client('KILL', 'ID', id);
      await heardWithin(outbox, () => heard, 'after');
      const after = await watchClients(name);
      expect(after.map(({ id }) => id)).not.toContain(before[0]?.id);
      await stop();
      const deadline = Date.now() + 2_000;
      while ((await watchClients(name)).length > 0 && Date.now() < deadline) await sleep(20);
      expect(await watchClients(name)).toEqual([]);
    });
  });
}

/** Runs every script of the stores at least once, the outbox's lease sweep and cap included. */
async function everyScript(
  stores: ReturnType<typeof createRedisStores>,
  clock: ReturnType<typeof fakeClock>,
): Promise<void> {
  const {
    claims,
    outbox,
    links,
    budget,
    schedule,
    mirror,
    feed,
    fairShare,
    triageChannels,
    homes,
  } = stores;
  const held = await claims.claim('c1', 30_000);
  if (held.state === 'claimed') await claims.complete('c1', held.token, { ok: true });
  const other = await claims.claim('c2', 30_000);
  if (other.state === 'claimed') await claims.release('c2', other.token);

  await outbox.enqueue('d1', 'k', { n: 1 });
  await outbox.enqueue('d2', 'k', { n: 2 }, { leaseTo: { workerId: 'web', leaseMs: 1_000 } });
  await outbox.enqueue('d3', 'k', { n: 3 });
  await outbox.enqueue('d4', 'k', { n: 4 });
  await outbox.amend('d4', 'k', { n: 5 }, '1');
  await outbox.complete(reserved(await outbox.reserve('w', 1_000)), { done: 1 });
  await outbox.retryAt(reserved(await outbox.reserve('w', 1_000)), clock.now(), 'later');
  clock.advance(1_000);
  // The lapsed leases go back first; the cap of one drops the first letter at the second.
  await outbox.fail(reserved(await outbox.reserve('w', 1_000)), 'boom');
  const last = reserved(await outbox.reserve('w', 1_000));
  await outbox.fail(last, 'boom');
  await outbox.stats();
  await outbox.deadLetters();
  await outbox.deadLetter(last.id);
  await outbox.retryDeadLetter(last.id);
  await outbox.fail(reserved(await outbox.reserve('w', 1_000)), 'boom again');
  await outbox.dropDeadLetter(last.id);

  await links.link('T1', { channel: 'C1', threadTs: '1.1' });
  await links.link('T2', { channel: 'C1', threadTs: '1.1' }, { move: true });
  await links.unlink('T2', { channel: 'C1', threadTs: '1.1' });

  await budget.take('interactive');
  await budget.observe({
    limit: 100,
    remaining: 50,
    resetAt: clock.now() + 60_000,
    observedAt: clock.now(),
  });
  await budget.backOff(clock.now() + 1_000);
  await budget.usage();

  await schedule.pollAt('T1', clock.now());
  const [claim] = await schedule.claimDue(5, 30_000);
  if (claim) await schedule.reschedule(claim, clock.now() + 1_000);
  await schedule.dueWithin(clock.now() + 1_000, 5);
  await schedule.pollAt('T2', clock.now());
  await schedule.postpone('T2', clock.now(), clock.now() + 1_000);
  await schedule.remove('T1');

  await feed.saveState({ scannedAt: clock.now(), data: { cursor: 1 } });

  await fairShare.take('U1', [{ capacity: 1, refillEveryMs: 60_000 }]);
  await fairShare.take('U1', [{ capacity: 1, refillEveryMs: 60_000 }]);

  await triageChannels.set('it', 'C1');
  await triageChannels.clear('C1');

  await mirror.saveState('T1', mirrorState(clock.now()));
  await mirror.noteSlackWrite('T1', clock.now());
  await mirror.keepTicket('T1', '{"id":"T1"}');
  const post = await mirror.claimPost('T1', 'p1', 30_000);
  if (post.state === 'claimed') await mirror.completePost('T1', 'p1', post.token);
  const retried = await mirror.claimPost('T1', 'p2', 30_000);
  if (retried.state === 'claimed') await mirror.releasePost('T1', 'p2', retried.token);

  await homes.note('C1', 'T0001');
  await homes.adopt(['C1', 'C2'], 'T0002');
  await homes.forget('T0001');
}

/**
 * A script's text as MONITOR quotes it (Redis's sdscatrepr), after ioredis has turned `\"`
 * back into `"`.
 */
function monitorQuoted(text: string): string {
  const named: Record<string, string> = {
    '\\': '\\\\',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\x07': '\\a',
    '\b': '\\b',
  };
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out +=
      named[char] ??
      (code >= 0x20 && code < 0x7f ? char : `\\x${code.toString(16).padStart(2, '0')}`);
  }
  return out;
}

/**
 * MONITOR on one node, collecting what it reports until `stop`. Under a busy shared server the
 * first monitored lines can reach ioredis before the MONITOR reply (its "Command queue state
 * error"): a connection that saw that is dropped and MONITOR started again, and the work only
 * begins once a marker sent after it has been seen.
 */
async function watchNode(node: Redis): Promise<{ commands: Monitored[]; stop(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const monitor = await node.monitor();
    const commands: Monitored[] = [];
    const errors: unknown[] = [];
    monitor.on('error', (error: unknown) => errors.push(error));
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      commands.push({ args, source });
    });
    // MONITOR reports in order: once a marker sent now is seen, everything after it will be.
    const seenMarker = async (): Promise<boolean> => {
      const marker = `monitor-mark:${Math.random()}`;
      await node.echo(marker);
      const deadline = Date.now() + 5_000;
      while (!commands.some(({ args }) => args[1] === marker) && Date.now() < deadline) {
        await sleep(10);
      }
      return commands.some(({ args }) => args[1] === marker);
    };
    if ((await seenMarker()) && errors.length === 0) {
      return {
        commands,
        async stop() {
          await seenMarker();
          monitor.disconnect();
          expect(errors).toEqual([]);
        },
      };
    }
    monitor.disconnect();
    if (attempt === 3) throw new Error(`MONITOR did not start cleanly: ${String(errors[0])}`);
  }
}
