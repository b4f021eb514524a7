import { describe, expect, it } from 'vitest';
import { readStepInputs } from '../../../src/slack/tickets/workflow-step-inputs.ts';

const ranBy = (id: string) => ({ interactor: { id, secret: 's' }, interactivity_pointer: 'p' });

describe('the workflow step’s inputs', () => {
  it('files for the person who ran the workflow when no requester is chosen', () => {
    const read = readStepInputs({ title: ' Laptop ', interactivity: ranBy('U0BOB') });
    expect(read).toEqual({
      ok: true,
      filing: { title: 'Laptop', requesterUserId: 'U0BOB', runnerUserId: 'U0BOB' },
    });
  });

  it('files for the chosen requester, the runner kept as who filed it', () => {
    const read = readStepInputs({
      title: 'Laptop',
      requester: 'U0ALICE',
      interactivity: ranBy('U0BOB'),
    });
    expect(read.ok && read.filing).toMatchObject({
      requesterUserId: 'U0ALICE',
      runnerUserId: 'U0BOB',
    });
  });

  it('takes desk fields as an object or as its JSON text, and empty inputs as none', () => {
    const asText = readStepInputs({
      title: 'Laptop',
      requester: 'U0BOB',
      desk: '',
      priority: 'High',
      custom_fields: '{"device_type":"laptop","floor":3,"systems":["vpn"]}',
    });
    expect(asText).toEqual({
      ok: true,
      filing: {
        title: 'Laptop',
        requesterUserId: 'U0BOB',
        priority: 'high',
        customFields: { device_type: 'laptop', floor: 3, systems: ['vpn'] },
      },
    });
  });

  it('says what is wrong: no requester, a priority it does not know, desk fields not an object', () => {
    expect(readStepInputs({ title: 'Laptop' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('no Requester'),
    });
    expect(readStepInputs({ title: 'Laptop', requester: 'U0BOB', priority: 'asap' })).toMatchObject(
      { ok: false, problem: expect.stringContaining('Priority "asap"') },
    );
    expect(
      readStepInputs({ title: 'Laptop', requester: 'U0BOB', custom_fields: '[1,2]' }),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('Desk fields') });
    expect(readStepInputs({ title: '  ', requester: 'U0BOB' })).toMatchObject({
      ok: false,
      problem: 'Title is empty.',
    });
  });
});
