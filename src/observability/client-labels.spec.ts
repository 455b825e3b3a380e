import { ClientLabels, OTHER_CLIENTS } from './client-labels';

describe('ClientLabels', () => {
  it('keeps the first `limit` distinct ids and folds every later one into "other"', () => {
    const labels = new ClientLabels(2);
    expect(['a', 'b', 'a', 'c', 'b', 'd'].map((id) => labels.labelFor(id))).toEqual([
      'a',
      'b',
      'a',
      OTHER_CLIENTS,
      'b',
      OTHER_CLIENTS,
    ]);
  });

  it('gives no client a label of its own at limit 0', () => {
    const labels = new ClientLabels(0);
    expect(labels.labelFor('a')).toBe(OTHER_CLIENTS);
  });

  it('never lets a client take the name "other" as its own', () => {
    const labels = new ClientLabels(5);
    expect(labels.labelFor(OTHER_CLIENTS)).toBe(OTHER_CLIENTS);
    expect(labels.labelFor('x')).toBe('x');
  });

  it('remembers at most `limit` ids however many arrive', () => {
    const labels = new ClientLabels(3);
    for (let i = 0; i < 100_000; i++) labels.labelFor(`client-${i}`);
    expect(labels.size).toBe(3);
  });
});
