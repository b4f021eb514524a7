import { describe, expect, it } from 'vitest';
import { parseConsoleLine } from '../../tools/slack-double/console-commands.ts';

describe('console commands', () => {
  it('reads a slash command with its text', () => {
    expect(parseConsoleLine('/ticket printer jams')).toEqual({
      kind: 'slash',
      command: '/ticket',
      text: 'printer jams',
    });
  });

  it('reads a reply with its thread ts', () => {
    expect(parseConsoleLine('reply 1700000000.000100 still broken')).toEqual({
      kind: 'say',
      threadTs: '1700000000.000100',
      text: 'still broken',
    });
  });

  it('reads submitted fields, quoted or not, under their action ids', () => {
    expect(parseConsoleLine('submit title="VPN is down" priority=high desk=it')).toEqual({
      kind: 'submit',
      values: { title_input: 'VPN is down', priority_select: 'high', desk_select: 'it' },
    });
  });

  it('reads a workflow run’s inputs by their own names, JSON in single quotes', () => {
    expect(
      parseConsoleLine(
        `workflow title="New laptop" desk=it-hardware custom_fields='{"device_type":"laptop"}'`,
      ),
    ).toEqual({
      kind: 'workflow',
      inputs: {
        title: 'New laptop',
        desk: 'it-hardware',
        custom_fields: '{"device_type":"laptop"}',
      },
    });
  });

  it('says what is wrong with a line it cannot read', () => {
    expect(parseConsoleLine('submit title=')).toMatchObject({ kind: 'invalid' });
    expect(parseConsoleLine('dance')).toEqual({
      kind: 'invalid',
      reason: 'unknown command "dance" (help lists them)',
    });
  });

  it('reacts with the ticket emoji unless told otherwise', () => {
    expect(parseConsoleLine('react 1.2')).toEqual({ kind: 'react', ts: '1.2', reaction: 'ticket' });
    expect(parseConsoleLine('react 1.2 :eyes:')).toEqual({
      kind: 'react',
      ts: '1.2',
      reaction: 'eyes',
    });
  });

  it('skips blank lines', () => {
    expect(parseConsoleLine('   ')).toBeUndefined();
  });
});
