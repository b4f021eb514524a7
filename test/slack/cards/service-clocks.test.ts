import { describe, expect, it } from 'vitest';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import { serviceClockInputs } from '../../../src/slack/cards/service-clocks.ts';

describe('service clock inputs', () => {
  it('reads the app clock at each card, with SLA_TARGETS and SLA_WARN_AT as set', () => {
    let nowMs = 1_000;
    const targets = parseServiceTargets('it:urgent=15m/4h').targets;
    const inputs = serviceClockInputs({ slaTargets: targets, slaWarnAt: 0.5 }, () => nowMs);
    expect(inputs()).toEqual({ targets, warnAt: 0.5, nowMs: 1_000 });
    nowMs = 2_000;
    expect(inputs().nowMs).toBe(2_000);
  });

  it('warns at 80% and has no targets of its own when nothing is set', () => {
    const inputs = serviceClockInputs({}, () => 0)();
    expect([inputs.warnAt, inputs.targets.size]).toEqual([0.8, 0]);
  });
});
