import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import {
  buildUpdateModal,
  changedFields,
  decodeUpdateMetadata,
  encodeUpdateMetadata,
  notAnAgentError,
  objectPronoun,
  readUpdateForm,
  updateErrorsToBlocks,
} from '../../../src/slack/builders/update-modal-builder.ts';

const ticket: Ticket = {
  id: 'IT-12',
  title: 'VPN <!channel> drops',
  status: 'in_progress',
  priority: 'high',
  created_at: '2026-11-20T09:30:00Z',
  assignee_email: 'sam.rivera@acme.example',
};
const text = (value: unknown) => JSON.stringify(value);

describe('update modal', () => {
  it('opens with the ticket’s status, priority and assignee selected', () => {
    const modal = text(
      buildUpdateModal({ ticket, privateMetadata: '{}', assigneeUserId: 'U0AGENT' }),
    );
    expect(modal).toContain('"initial_option":{"text":{"type":"plain_text","text":"In progress"');
    expect(modal).toContain('"initial_option":{"text":{"type":"plain_text","text":"High"');
    expect(modal).toContain('"initial_user":"U0AGENT"');
    expect(modal).toContain('"type":"users_select"');
  });

  it('says who the ticket is assigned to when that person is not in Slack', () => {
    expect(text(buildUpdateModal({ ticket, privateMetadata: '{}' }))).toContain(
      'Assigned now to sam.rivera@acme.example',
    );
  });

  it('escapes the ticket title', () => {
    const modal = text(buildUpdateModal({ ticket, privateMetadata: '{}' }));
    expect(modal).not.toContain('<!channel>');
    expect(modal).toContain('&lt;!channel&gt;');
  });

  it('reads the submitted values back', () => {
    expect(
      readUpdateForm({
        status: { status_select: { selected_option: { value: 'resolved' } } },
        priority: { priority_select: { selected_option: { value: 'urgent' } } },
        assignee: { assignee_select: { selected_user: 'U0AGENT' } },
      }),
    ).toEqual({ status: 'resolved', priority: 'urgent', assigneeUserId: 'U0AGENT' });
  });

  it('drops a status the contract does not know', () => {
    expect(
      readUpdateForm({ status: { status_select: { selected_option: { value: 'on_hold' } } } })
        .status,
    ).toBeUndefined();
  });

  it('sends only the fields the agent changed', () => {
    expect(
      changedFields(
        { status: 'in_progress', priority: 'urgent', assigneeUserId: 'U0AGENT' },
        { status: 'in_progress', priority: 'high', assigneeUserId: 'U0AGENT' },
      ),
    ).toEqual({ priority: 'urgent' });
  });

  it('round-trips its metadata', () => {
    const metadata = {
      ticketId: 'IT-12',
      initial: { status: 'open' },
      card: { kind: 'card' as const, channel: 'C1', ts: '1.1', lead: 'filed' },
    };
    expect(decodeUpdateMetadata(encodeUpdateMetadata(metadata))).toEqual(metadata);
  });

  it('leaves out the card to refresh rather than overflow private_metadata', () => {
    const card = {
      kind: 'message' as const,
      channel: 'D1',
      ts: '1.1',
      text: 'x'.repeat(4_000),
      blocks: [],
      actionsBlockId: 'a',
    };
    const encoded = encodeUpdateMetadata({ ticketId: 'IT-12', card });
    expect(encoded.length).toBeLessThanOrEqual(3000);
    expect(decodeUpdateMetadata(encoded)).toEqual({ ticketId: 'IT-12' });
  });

  it('puts a platform 422 on the assignee under the assignee field', () => {
    expect(updateErrorsToBlocks({ assignee_email: 'not an agent of this organization' })).toEqual({
      assignee: 'Not an agent of this organization',
    });
  });

  it('leaves the platform’s “Value error,” out of a field’s message', () => {
    expect(updateErrorsToBlocks({ priority: 'Value error, unknown priority' })).toEqual({
      priority: 'Unknown priority',
    });
  });

  it('says by name that a person who is not an agent cannot be assigned the ticket', () => {
    expect(notAnAgentError({ name: 'Alice Archer', pronouns: 'she/her' })).toBe(
      'Alice Archer is not a service-desk agent, so the ticket can’t be assigned to her.',
    );
  });

  it('names a person whose pronouns are not known as “them”', () => {
    expect(notAnAgentError({ name: 'Bob Baker' })).toBe(
      'Bob Baker is not a service-desk agent, so the ticket can’t be assigned to them.',
    );
  });

  it('reads the object pronoun from how a profile writes its pronouns', () => {
    expect(objectPronoun('She/Her')).toBe('her');
    expect(objectPronoun('he/him/his')).toBe('him');
    expect(objectPronoun('they/them')).toBe('them');
    expect(objectPronoun('ze/zir')).toBe('them');
    expect(objectPronoun(undefined)).toBe('them');
  });
});
