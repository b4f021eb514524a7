/** The change stream: a revision that only grows, batched so a burst costs the page one fetch. */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RevisionFeed } from '../../tools/sandbox/revision-feed.ts';

/** A stand-in for the ServerResponse of an EventSource request, collecting what is written. */
function fakeResponse() {
  const stream = new PassThrough();
  const written: string[] = [];
  const res = Object.assign(stream, {
    writeHead: vi.fn(),
    write: (chunk: string) => {
      written.push(chunk);
      return true;
    },
  });
  return { res, written };
}

describe('the sandbox page’s revision feed', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one change event for a burst of changes, with the latest revision', () => {
    vi.useFakeTimers();
    const feed = new RevisionFeed({ batchMs: 30 });
    const { res, written } = fakeResponse();
    feed.subscribe(res as never);
    written.length = 0;
    feed.changed();
    feed.changed();
    feed.changed();
    vi.advanceTimersByTime(30);
    expect(written).toEqual(['event: change\ndata: {"revision":3}\n\n']);
    feed.close();
  });

  it('tells a new listener the current revision at once', () => {
    const feed = new RevisionFeed();
    feed.changed();
    const { res, written } = fakeResponse();
    feed.subscribe(res as never);
    expect(written.join('')).toContain('data: {"revision":1}');
    feed.close();
  });

  it('stops counting once closed', () => {
    const feed = new RevisionFeed();
    feed.close();
    feed.changed();
    expect(feed.revision).toBe(0);
  });
});
