import { invalidArguments, MAX_LISTED_FIELDS } from './invalid-arguments.error';

describe('invalidArguments', () => {
  it('lists every field when there are few', () => {
    const error = invalidArguments('t', [{ field: 'a', problems: ['must be a string'] }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid arguments for tool t: a: must be a string');
    expect(error.data).toEqual({
      tool: 't',
      errors: [{ field: 'a', problems: ['must be a string'] }],
    });
  });

  it('lists at most MAX_LISTED_FIELDS fields and says how many more there are', () => {
    const fields = Array.from({ length: 300_000 }, (_, i) => ({
      field: `k${i}`,
      problems: [`property k${i} should not exist`],
    }));
    const error = invalidArguments('t', fields);
    expect(error.data.errors).toHaveLength(MAX_LISTED_FIELDS);
    expect(error.data.omitted).toBe(300_000 - MAX_LISTED_FIELDS);
    expect(error.message).toMatch(/; k19: property k19 should not exist \(and 299,980 more\)$/);
    expect(
      Buffer.byteLength(JSON.stringify({ message: error.message, data: error.data })),
    ).toBeLessThan(4096);
  });

  it('cuts long field names and problem texts, and many problems of one field', () => {
    const long = 'x'.repeat(10_000);
    const error = invalidArguments('t', [
      { field: long, problems: [long, 'b', 'c', 'd', 'e', 'f', 'g'] },
    ]);
    const [listed] = error.data.errors as Array<{ field: string; problems: string[] }>;
    expect(listed.field).toHaveLength(201);
    expect(listed.problems).toHaveLength(5);
    expect(listed.problems[0]).toHaveLength(201);
    expect(error.message.length).toBeLessThan(1000);
  });
});
