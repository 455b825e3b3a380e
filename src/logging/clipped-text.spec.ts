import { clippedJson, clipText } from './clipped-text';

describe('clipped text for log lines', () => {
  it('keeps JSON within the limit whole', () => {
    expect(clippedJson({ name: 'a', version: '1' }, 64)).toEqual({
      text: '{"name":"a","version":"1"}',
    });
  });

  it('cuts longer JSON to the limit and says how long it was', () => {
    const value = { name: 'n'.repeat(1000) };
    const clipped = clippedJson(value, 32);
    expect(clipped.text).toBe(JSON.stringify(value).slice(0, 32));
    expect(clipped.fullLength).toBe(JSON.stringify(value).length);
  });

  it('does not split a surrogate pair at the cut', () => {
    expect(clipText('ab🦉🦉', 3)).toBe('ab');
    expect(clipText('ab🦉🦉', 4)).toBe('ab🦉');
    expect(clipText('short', 64)).toBe('short');
  });
});
