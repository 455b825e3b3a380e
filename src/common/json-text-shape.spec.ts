import { findJsonTextBreach, JsonTextLimits } from './json-text-shape';

const limits: JsonTextLimits = {
  maxDepth: 4,
  maxKeys: 5,
  maxArrayElements: 6,
  maxOuterArrayElements: 7,
};
const breach = (text: string) => findJsonTextBreach(text, limits);

describe('findJsonTextBreach', () => {
  it('counts nesting, keys and array elements as JSON.parse would build them', () => {
    expect(breach('[[[[]]]]')).toBeUndefined();
    expect(breach('[[[[[]]]]]')).toBe('maxDepth');
    expect(breach('{"a":{"b":{"c":{"d":1}}}}')).toBeUndefined();
    expect(breach('{"a":{"b":{"c":{"d":{}}}}}')).toBe('maxDepth');
    expect(breach('{"a":1,"b":2,"c":3,"d":4,"e":5}')).toBeUndefined();
    expect(breach('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}')).toBe('maxKeys');
    expect(breach('{"a":[0, 0, 0, 0, 0, 0]}')).toBeUndefined();
    expect(breach('{"a":[0,0,0,0,0,0,0]}')).toBe('maxArrayElements');
    expect(breach('{"a":[1,2,3],"b":[4,5,6]}')).toBeUndefined();
    expect(breach('{"a":[1,2,3],"b":[4,5,6,7]}')).toBe('maxArrayElements');
    expect(breach('[ ]')).toBeUndefined();
    expect(breach('[{ },{}, [ ] ,[],[],[]]')).toBeUndefined();
  });

  it('skips strings whole, escaped quotes included', () => {
    expect(breach('["[[[[[,,,,,,,,{{{{{"]')).toBeUndefined();
    expect(breach('["\\"[[[[[[,,,,,,,\\\\"]')).toBeUndefined();
    expect(breach('["\\\\",[[[[]]]]]')).toBe('maxDepth');
  });

  it('stops at the first limit passed, before the rest of the text', () => {
    const deep = '['.repeat(1_000_000);
    expect(breach(deep)).toBe('maxDepth');
    expect(breach(`[[${'0,'.repeat(1_000_000)}0]]`)).toBe('maxArrayElements');
    expect(breach(`[${'0,'.repeat(1_000_000)}0]`)).toBe('maxOuterArrayElements');
  });

  it('names the outer array (a batch) first when it holds too many elements, whatever they hold', () => {
    expect(breach('[{},{},{},{},{},{},{}]')).toBeUndefined();
    expect(breach('[{},{},{},{},{},{},{},{}]')).toBe('maxOuterArrayElements');
    const batch = `[${'{"a":1,"b":2},'.repeat(20)}{}]`;
    expect(findJsonTextBreach(batch, { ...limits, maxKeys: 1_000 })).toBe('maxOuterArrayElements');
    // Arrays inside count toward maxArrayElements only.
    expect(breach('[[0,0,0],[0,0,0],[0]]')).toBe('maxArrayElements');
  });

  it('leaves invalid JSON to JSON.parse', () => {
    expect(breach('{"a":')).toBeUndefined();
    expect(breach('"unclosed')).toBeUndefined();
    expect(breach(']]]]')).toBeUndefined();
  });
});
