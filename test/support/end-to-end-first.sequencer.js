'use strict';
/**
 * Jest's own order (failed first, then slowest first by the timings of the last run), except
 * that on a run with no timings (a fresh clone, as in CI) the end-to-end suites start first
 * instead of the biggest files: they wait on processes and timers, so started early they
 * interleave with the CPU-bound unit specs and no long suite is left for the end of the run.
 */
const Sequencer = require('@jest/test-sequencer').default;

class EndToEndFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => (test.duration == null && test.path.endsWith('.e2e-spec.ts') ? 0 : 1);
    return super
      .sort(tests)
      .map((test, index) => ({ test, index }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.index - b.index)
      .map(({ test }) => test);
  }
}

module.exports = EndToEndFirstSequencer;
