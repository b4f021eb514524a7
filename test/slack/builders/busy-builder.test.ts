import { describe, expect, it } from 'vitest';
import {
  aboutIn,
  ageText,
  buildBusy,
  buildKnownStatus,
  keptDevicesLine,
  listsNotListedLine,
} from '../../../src/slack/builders/busy-builder.ts';

describe('busy words', () => {
  it('rounds the wait up, so trying again then works', () => {
    expect(aboutIn(39_001)).toBe('about 40 s');
    expect(aboutIn(0)).toBe('about 1 s');
    expect(aboutIn(61_000)).toBe('about 2 min');
  });

  it('rounds an age down, never calling old news younger than it is', () => {
    expect(ageText(2_000)).toBe('just now');
    expect(ageText(59_999)).toBe('59 s ago');
    expect(ageText(179_000)).toBe('2 min ago');
    expect(ageText(7_200_000)).toBe('2 h ago');
  });

  it('says the desk is busy and when to try again', () => {
    expect(buildBusy('budget', 40_000).text).toBe(
      ':hourglass_flowing_sand: The service desk is busy; try again in about 40 s.',
    );
  });

  it('tells a person past their share that it is their share, and when to try again', () => {
    expect(buildBusy('fair_share', 6_000).text).toContain(
      'You have asked the service desk for a lot',
    );
    expect(buildBusy('fair_share', 6_000).text).toContain('try again in about 6 s');
  });

  it('shows the last known status with its age, then why it is not fresher', () => {
    const message = buildKnownStatus(
      { ticketId: 'IT-7', status: 'in_progress', ageMs: 180_000 },
      'budget',
      40_000,
    );
    expect(message.text).toContain(
      '*IT-7* was :hammer_and_wrench: In progress when the app last saw it, 3 min ago.',
    );
    expect(message.text).toContain('try again in about 40 s');
  });

  it('says why the create form lists no desks or devices, and that it still files', () => {
    expect(listsNotListedLine({ reason: 'budget', retryInMs: 40_000 })).toContain(
      'the service desk is busy; try again in about 40 s',
    );
    expect(listsNotListedLine(undefined)).toContain('not answering right now');
    expect(listsNotListedLine(undefined)).toContain('You can still file');
  });

  it('says the person’s own share left the create form’s lists out, and whose devices', () => {
    const line = listsNotListedLine({ reason: 'fair_share', retryInMs: 20_000 }, 'the requester’s');
    expect(line).toContain('Desks or the requester’s devices could not be listed');
    expect(line).toContain('you have asked the service desk for a lot');
    expect(line).toContain('try again in about 20 s');
  });

  it('says the create form’s devices are a kept list, how old, and why not read again', () => {
    const line = keptDevicesLine(7 * 60_000, { reason: 'fair_share', retryInMs: 20_000 });
    expect(line).toContain('Your devices as the app listed them 7 min ago');
    expect(line).toContain('try again in about 20 s');
  });
});
