import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/servicedesk/index.ts';
import {
  stepFailureText,
  stepStillFilingText,
} from '../../../src/slack/builders/workflow-step-error-builder.ts';
import { PersonWithoutEmailError } from '../../../src/slack/errors.ts';

const refused = (...detail: { loc: string[]; msg: string }[]) =>
  new ValidationError({
    operation: 'createTicket',
    method: 'POST',
    path: '/api/v1/tickets/',
    status: 422,
    headers: {},
    body: { detail: detail.map((d) => ({ ...d, type: 'value_error' })) },
  });

describe('the words a workflow step ends with', () => {
  it('names a refused desk field by its key, in the step’s Desk fields input', () => {
    const text = stepFailureText(
      refused({ loc: ['body', 'custom_fields', 'manager_email'], msg: 'Field required' }),
    );
    expect(text).toBe(
      'The ticket was not filed: the service desk refused desk field "manager_email" in Desk fields: Field required.',
    );
  });

  it('names a refused ticket field by the step input that fills it', () => {
    const text = stepFailureText(
      refused(
        { loc: ['body', 'title'], msg: 'String should have at most 200 characters' },
        { loc: ['body', 'desk_id'], msg: 'Unknown desk' },
      ),
    );
    expect(text).toContain('Title: String should have at most 200 characters; Desk: Unknown desk');
  });

  it('says a requester without an email cannot be matched, and what to do', () => {
    expect(stepFailureText(new PersonWithoutEmailError('U0NOMAIL'))).toContain(
      'the requester (U0NOMAIL) has no email address',
    );
  });

  it('is plain text: no mrkdwn, no mention syntax', () => {
    const text = stepStillFilingText('U0BOB', 10);
    expect(text).not.toMatch(/[*<>]|:\w+:/);
    expect(text).toContain('will still be filed');
  });
});
