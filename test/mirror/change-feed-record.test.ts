import { describe, expect, it } from 'vitest';
import {
  emptyFeedRecord,
  feedRecordData,
  readFeedRecord,
} from '../../src/mirror/change-feed-record.ts';
import type { JsonValue } from '../../src/store/types.ts';

const T0 = 1_767_225_600_000;

/** The data as the store hands it back: through JSON, as Redis keeps it. */
function stored(data: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(data)) as JsonValue;
}

describe('change feed record', () => {
  it('keeps a sweep’s watch through a write and a read', () => {
    const record = {
      ...emptyFeedRecord(),
      way: 'sweep' as const,
      detectedAt: T0,
      watch: { at: T0 + 5_000, periodMs: 60_000 },
    };
    const read = readFeedRecord(stored(feedRecordData(record)));
    expect(read.watch).toEqual({ at: T0 + 5_000, periodMs: 60_000 });
    expect(read).toEqual(record);
  });

  it('writes no watch for a record without one, and reads none back', () => {
    const data = feedRecordData({ ...emptyFeedRecord(), way: 'sweep', detectedAt: T0 });
    expect(data).not.toHaveProperty('watch');
    expect(readFeedRecord(stored(data)).watch).toBeUndefined();
  });

  it('reads a damaged watch as missing, and the rest of the record as it was', () => {
    const damaged: JsonValue[] = [
      null,
      'soon',
      [T0, 60_000],
      { at: T0 },
      { periodMs: 60_000 },
      { at: 'yesterday', periodMs: 60_000 },
      { at: T0, periodMs: -1 },
      { at: T0, periodMs: 60_000.5 },
    ];
    for (const watch of damaged) {
      const read = readFeedRecord({ way: 'sweep', detectedAt: T0, ranges: {}, watch });
      expect(read.watch, JSON.stringify(watch)).toBeUndefined();
      expect(read).toMatchObject({ way: 'sweep', detectedAt: T0 });
    }
  });
});
