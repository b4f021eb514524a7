import { describe, expect, it } from 'vitest';
import { AdaptivePlanner, MIRROR_TUNING, tuningOf } from '../../src/mirror/index.ts';

describe('mirror tuning table', () => {
  it('gives every tunable a value, a unit and the reason for its value', () => {
    for (const group of Object.values(MIRROR_TUNING)) {
      for (const tunable of Object.values(group)) {
        expect(Number.isFinite(tunable.value)).toBe(true);
        expect(['ms', 'share', 'factor', 'count']).toContain(tunable.unit);
        expect(tunable.why.length).toBeGreaterThan(10);
      }
    }
  });

  it('reads the table’s values where nothing overrides them, and an override where one does', () => {
    expect(tuningOf('look').firstLookMs).toBe(2_000);
    expect(tuningOf('look', { firstLookMs: 3_000, turnMs: undefined })).toMatchObject({
      firstLookMs: 3_000,
      turnMs: 60_000,
    });
  });

  it('is where the adaptive strategy reads its defaults', () => {
    const now = 1_767_225_600_000;
    expect(new AdaptivePlanner().afterSlackWrite(now)).toBe(
      now + MIRROR_TUNING.look.firstLookMs.value,
    );
    expect(new AdaptivePlanner({ firstLookMs: 4_000 }).afterSlackWrite(now)).toBe(now + 4_000);
  });
});
