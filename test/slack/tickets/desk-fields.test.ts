import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  type CustomField,
  type Envelope,
  NotFoundError,
  ServerError,
} from '../../../src/servicedesk/index.ts';
import type { Reads } from '../../../src/slack/deps.ts';
import { FairShareSpentError } from '../../../src/slack/errors.ts';
import {
  DeskFieldCatalog,
  deskFieldsFor,
  deskFieldsOf,
} from '../../../src/slack/tickets/desk-fields.ts';
import { fakePart, silentLogger } from '../support/fake-deps.ts';

const field = (key: string, desk = 'hr'): CustomField => ({
  key,
  name: key,
  desk_id: desk,
  type: 'text',
  required: false,
});

const apiInit = (status: number) => ({
  operation: 'listCustomFields' as const,
  method: 'GET',
  path: '/api/v1/custom-fields/',
  status,
  headers: {},
  body: { detail: 'x' },
});

/** A platform whose answers the test releases one by one, counting requests per desk. */
function platform() {
  const requests: string[] = [];
  const answers: Array<(result: Envelope<CustomField> | Error) => void> = [];
  const client = {
    listCustomFields(query: { desk_id?: string } = {}): Promise<Envelope<CustomField>> {
      requests.push(query.desk_id ?? '');
      return new Promise((resolve, reject) => {
        answers.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
      });
    },
  };
  const answer = (result: CustomField[] | Error) => {
    const next = answers.shift();
    if (!next) throw new Error('no request is waiting');
    next(result instanceof Error ? result : { items: result, total_count: result.length });
  };
  return { client, requests, answer };
}

function catalog(p: ReturnType<typeof platform>, clock: { now: number }, errors: unknown[] = []) {
  return new DeskFieldCatalog({
    client: p.client,
    now: () => clock.now,
    onRefreshError: (error) => errors.push(error),
  });
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('DeskFieldCatalog', () => {
  it('asks once for a desk however many forms wait on it at the same time', async () => {
    const p = platform();
    const fields = catalog(p, { now: 0 });
    const first = fields.get('hr');
    const second = fields.get('hr');
    p.answer([field('start_date')]);
    expect(await first).toEqual([field('start_date')]);
    expect(await second).toEqual([field('start_date')]);
    expect(p.requests).toEqual(['hr']);
  });

  it('answers from the kept copy for ten minutes without asking again', async () => {
    const p = platform();
    const clock = { now: 0 };
    const fields = catalog(p, clock);
    const first = fields.get('hr');
    p.answer([field('start_date')]);
    await first;
    clock.now = 10 * 60_000 - 1;
    expect(await fields.get('hr')).toEqual([field('start_date')]);
    expect(fields.peek('hr')).toEqual([field('start_date')]);
    expect(p.requests).toEqual(['hr']);
  });

  it('keeps each desk apart', async () => {
    const p = platform();
    const fields = catalog(p, { now: 0 });
    const hr = fields.get('hr');
    const it = fields.get('it');
    p.answer([field('start_date')]);
    p.answer([field('device_type', 'it')]);
    expect((await hr).map((f) => f.key)).toEqual(['start_date']);
    expect((await it).map((f) => f.key)).toEqual(['device_type']);
    expect(p.requests).toEqual(['hr', 'it']);
  });

  it('gives a stale copy at once and refreshes it behind, once', async () => {
    const p = platform();
    const clock = { now: 0 };
    const fields = catalog(p, clock);
    const first = fields.get('hr');
    p.answer([field('start_date')]);
    await first;
    clock.now = 10 * 60_000;
    expect(await fields.get('hr')).toEqual([field('start_date')]);
    expect(fields.peek('hr')).toEqual([field('start_date')]);
    expect(p.requests).toEqual(['hr', 'hr']);
    p.answer([field('start_date'), field('manager_email')]);
    await flush();
    expect(fields.peek('hr')?.map((f) => f.key)).toEqual(['start_date', 'manager_email']);
  });

  it('peeks nothing for a desk never read, without asking', () => {
    const p = platform();
    expect(catalog(p, { now: 0 }).peek('hr')).toBeUndefined();
    expect(p.requests).toEqual([]);
  });

  it('reads a platform without the endpoint (404) as a desk without fields, kept as any answer', async () => {
    const p = platform();
    const clock = { now: 0 };
    const fields = catalog(p, clock);
    const first = fields.get('hr');
    p.answer(new NotFoundError(apiInit(404)));
    expect(await first).toEqual([]);
    clock.now = 5 * 60_000;
    expect(await fields.get('hr')).toEqual([]);
    expect(p.requests).toEqual(['hr']);
  });

  it('keeps the stale copy when its refresh fails, and reports the failure', async () => {
    const p = platform();
    const clock = { now: 0 };
    const errors: unknown[] = [];
    const fields = catalog(p, clock, errors);
    const first = fields.get('hr');
    p.answer([field('start_date')]);
    await first;
    clock.now = 11 * 60_000;
    expect(await fields.get('hr')).toEqual([field('start_date')]);
    p.answer(new ServerError(apiInit(500)));
    await flush();
    expect(errors).toHaveLength(1);
    expect(fields.peek('hr')).toEqual([field('start_date')]);
  });

  it('after a failure with nothing kept, gives the failure without asking again for a minute', async () => {
    const p = platform();
    const clock = { now: 0 };
    const fields = catalog(p, clock);
    const first = fields.get('hr');
    p.answer(new ServerError(apiInit(503)));
    await expect(first).rejects.toBeInstanceOf(ServerError);
    clock.now = 59_999;
    await expect(fields.get('hr')).rejects.toBeInstanceOf(ServerError);
    expect(p.requests).toEqual(['hr']);
    clock.now = 60_000;
    const retried = fields.get('hr');
    p.answer([field('start_date')]);
    expect(await retried).toEqual([field('start_date')]);
    expect(p.requests).toEqual(['hr', 'hr']);
  });

  it('leaves out a field the platform names for another desk', async () => {
    const p = platform();
    const fields = catalog(p, { now: 0 });
    const first = fields.get('hr');
    p.answer([field('start_date'), field('office', 'it')]);
    expect((await first).map((f) => f.key)).toEqual(['start_date']);
  });
});

describe('DeskFieldCatalog with a person paying', () => {
  it('has the person pay only to start a request: kept or joined, it costs nothing', async () => {
    const p = platform();
    const fields = catalog(p, { now: 0 });
    const paid: string[] = [];
    const payer = (who: string) => async () => void paid.push(who);
    const first = fields.get('hr', payer('U1'));
    await flush();
    const joined = fields.get('hr', payer('U2'));
    p.answer([field('start_date')]);
    expect(await first).toEqual([field('start_date')]);
    expect(await joined).toEqual([field('start_date')]);
    expect(await fields.get('hr', payer('U3'))).toEqual([field('start_date')]);
    expect(paid).toEqual(['U1']);
    expect(p.requests).toEqual(['hr']);
  });

  it('asks nothing when the person cannot pay, and starts the next person’s request at once', async () => {
    const p = platform();
    const fields = catalog(p, { now: 0 });
    const spent = fields.get('hr', async () => {
      throw new FairShareSpentError('U1', 6_000);
    });
    await expect(spent).rejects.toBeInstanceOf(FairShareSpentError);
    expect(p.requests).toEqual([]);
    const next = fields.get('hr', async () => {});
    await flush();
    p.answer([field('start_date')]);
    expect(await next).toEqual([field('start_date')]);
  });
});

describe('deskFieldsFor', () => {
  it('gives no fields and when the share is back when the person cannot pay for the read', async () => {
    const p = platform();
    const reads = fakePart<Reads>('reads', {
      payer: () => async () => {
        throw new FairShareSpentError('U1', 6_000);
      },
    });
    const logger = silentLogger();
    const deskFields = catalog(p, { now: 0 });
    expect(
      await deskFieldsFor({ logger, reads, deskFields }, { userId: 'U1', request: 'form' }, 'hr'),
    ).toEqual({ fields: [], refused: { retryAt: 6_000 } });
    expect(p.requests).toEqual([]);
  });
});

describe('deskFieldsOf', () => {
  const silent = silentLogger();

  it('reads no fields without a desk, or without definitions', async () => {
    const p = platform();
    const deskFields = catalog(p, { now: 0 });
    expect(await deskFieldsOf({ logger: silent, deskFields }, undefined)).toEqual([]);
    expect(await deskFieldsOf({ logger: silent }, 'hr')).toEqual([]);
    expect(p.requests).toEqual([]);
  });

  it('reads no fields, and says so in the log, when the platform cannot be asked', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const p = platform();
    const read = deskFieldsOf({ logger, deskFields: catalog(p, { now: 0 }) }, 'hr');
    p.answer(new ServerError(apiInit(500)));
    expect(await read).toEqual([]);
    expect(lines.join('')).toContain('desk fields could not be loaded');
  });
});
