import { META_OUTPUT_TRUNCATED } from './upstream-connection.constants';
import { truncateToolOutput } from './upstream-output.truncator';

describe('truncateToolOutput', () => {
  it('returns a result within the limit unchanged', () => {
    const result = {
      content: [{ type: 'text' as const, text: 'small' }],
      structuredContent: { a: 1 },
    };
    expect(truncateToolOutput(result, 1_024)).toBe(result);
  });

  it('never splits a multi-byte character when it keeps head and tail', () => {
    const text = '€'.repeat(2_000);
    const cut = truncateToolOutput({ content: [{ type: 'text', text }] }, 1_024);
    const kept = (cut.content[0] as { text: string }).text;
    expect(kept).not.toContain('\uFFFD');
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(1_024);
    expect(kept.startsWith('€')).toBe(true);
    expect(kept.endsWith('€')).toBe(true);
  });

  it('replaces a non-text block that does not fit with a marker and counts it', () => {
    const image = { type: 'image' as const, data: 'A'.repeat(5_000), mimeType: 'image/png' };
    const cut = truncateToolOutput({ content: [{ type: 'text', text: 'caption' }, image] }, 1_024);
    expect(cut.content[0]).toEqual({ type: 'text', text: 'caption' });
    expect((cut.content[1] as { text: string }).text).toMatch(
      /a image block of \d+ bytes was dropped/,
    );
    expect(cut._meta?.[META_OUTPUT_TRUNCATED]).toMatchObject({
      textBlocksCut: 0,
      blocksDropped: 1,
    });
  });

  it('drops structuredContent that does not fit beside the text and keeps the upstream _meta', () => {
    const cut = truncateToolOutput(
      {
        content: [{ type: 'text', text: 'y'.repeat(3_000) }],
        structuredContent: { ok: true },
        _meta: { up: 1 },
      },
      1_024,
    );
    expect(cut.structuredContent).toBeUndefined();
    expect(cut._meta).toMatchObject({
      up: 1,
      [META_OUTPUT_TRUNCATED]: { structuredContentDropped: true },
    });
  });
});
