import { describe, expect, it } from 'vitest';
import {
  buildAlreadyUrgent,
  buildReactionRefusal,
} from '../../../src/slack/builders/triage-reaction-builder.ts';
import { blocksProblems } from '../../../tools/slack-double/block-kit-validation.ts';

describe('what a reaction on a triage card says privately', () => {
  it('tells someone who is not an agent what the reaction is for, and that it changed nothing', () => {
    const refusal = buildReactionRefusal('IT-7', 'eyes', 'assign');
    expect(refusal.text).toContain('service-desk agents');
    expect(refusal.text).toContain(':eyes:');
    expect(refusal.text).toContain('*IT-7*');
    expect(refusal.text).toContain('would assign it to you');
    expect(refusal.text).toContain('changed nothing');
    expect(blocksProblems(refusal.blocks ?? [], '/blocks', 50)).toEqual([]);
  });

  it('names each action as it would have been', () => {
    expect(buildReactionRefusal('IT-7', 'white_check_mark', 'resolve').text).toContain(
      'would resolve it',
    );
    expect(buildReactionRefusal('IT-7', 'arrow_up_small', 'raise').text).toContain(
      'would raise its priority',
    );
  });

  it('tells an agent raising an urgent ticket that it is urgent already', () => {
    const notice = buildAlreadyUrgent('IT-7');
    expect(notice.text).toContain('*IT-7* is already urgent');
    expect(blocksProblems(notice.blocks ?? [], '/blocks', 50)).toEqual([]);
  });
});
