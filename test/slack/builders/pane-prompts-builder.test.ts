import { describe, expect, it } from 'vitest';
import type { CatalogItem, Desk } from '../../../src/contract/schemas.ts';
import {
  buildPanePrompts,
  DEFAULT_PANE_PROMPTS,
  MAX_PANE_PROMPTS,
} from '../../../src/slack/builders/pane-prompts-builder.ts';

const item = (name: string): CatalogItem => ({ id: name, name, description: null, desk_id: null });
const desk = (name: string, parent: string | null = null): Desk => ({
  slug: name.toLowerCase(),
  name,
  parent_slug: parent,
});

describe('the AI pane’s suggested prompts', () => {
  it('takes two requests from the catalog and two questions to the top-level desks', () => {
    const prompts = buildPanePrompts({
      configured: undefined,
      catalog: [item('New laptop'), item('Headset'), item('Parking permit')],
      desks: [desk('IT'), desk('Hardware', 'it'), desk('People')],
    });
    expect(prompts).toEqual([
      { title: 'Request New laptop', message: 'Request: New laptop' },
      { title: 'Request Headset', message: 'Request: Headset' },
      { title: 'Ask IT', message: 'I have a question for IT' },
      { title: 'Ask People', message: 'I have a question for People' },
    ]);
  });

  it('fills the four from the catalog when there is one desk', () => {
    const prompts = buildPanePrompts({
      configured: undefined,
      catalog: ['A', 'B', 'C', 'D', 'E'].map(item),
      desks: [desk('IT')],
    });
    expect(prompts.map((p) => p.title)).toEqual(['Request A', 'Request B', 'Request C', 'Ask IT']);
  });

  it('offers the defaults when neither the catalog nor the desks could be read', () => {
    expect(
      buildPanePrompts({ configured: undefined, catalog: undefined, desks: undefined }),
    ).toEqual(DEFAULT_PANE_PROMPTS);
  });

  it('offers the configured prompts as written, at most four, and none for an empty list', () => {
    const configured = ['My laptop won’t start', 'Request software', 'a', 'b', 'c'];
    const prompts = buildPanePrompts({ configured, catalog: [item('X')], desks: [desk('IT')] });
    expect(prompts).toHaveLength(MAX_PANE_PROMPTS);
    expect(prompts[0]).toEqual({
      title: 'My laptop won’t start',
      message: 'My laptop won’t start',
    });
    expect(buildPanePrompts({ configured: [], catalog: [item('X')], desks: undefined })).toEqual(
      [],
    );
  });

  it('shortens a long title, never the message it sends', () => {
    const long = 'Please help me configure the shared team calendar for the whole department';
    const [prompt] = buildPanePrompts({ configured: [long], catalog: undefined, desks: undefined });
    expect(prompt?.title.length).toBeLessThanOrEqual(40);
    expect(prompt?.title.endsWith('…')).toBe(true);
    expect(prompt?.message).toBe(long);
  });
});
