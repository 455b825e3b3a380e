import { resolveEnvReferences } from './env-reference';

describe('resolveEnvReferences', () => {
  const env = { SET: 'value', EMPTY: '' };

  it('replaces required and defaulted references', () => {
    expect(resolveEnvReferences('a ${ENV:SET} b', env)).toEqual({ ok: true, value: 'a value b' });
    expect(resolveEnvReferences('${ENV:UNSET:-fallback}', env)).toEqual({
      ok: true,
      value: 'fallback',
    });
    expect(resolveEnvReferences('${ENV:SET:-fallback}', env)).toEqual({ ok: true, value: 'value' });
  });

  it('uses the default for an empty variable, like the shell, and keeps an empty required one', () => {
    expect(resolveEnvReferences('${ENV:EMPTY:-d}', env)).toEqual({ ok: true, value: 'd' });
    expect(resolveEnvReferences('${ENV:EMPTY}', env)).toEqual({ ok: true, value: '' });
  });

  it('lists every unset required variable once', () => {
    expect(resolveEnvReferences('${ENV:A}${ENV:B}${ENV:A}', env)).toEqual({
      ok: false,
      missing: ['A', 'B'],
    });
  });

  it('never scans substituted text again', () => {
    expect(resolveEnvReferences('${ENV:X}', { X: '${ENV:SET}' })).toEqual({
      ok: true,
      value: '${ENV:SET}',
    });
  });

  it('leaves other ${...} text alone and refuses a malformed ENV reference', () => {
    expect(resolveEnvReferences('${HOME} $ENV', env)).toEqual({ ok: true, value: '${HOME} $ENV' });
    expect(resolveEnvReferences('${ENV:}', env)).toEqual({ ok: false, malformed: true });
    expect(resolveEnvReferences('${ENV:A-B}', env)).toEqual({ ok: false, malformed: true });
    expect(resolveEnvReferences('${ENV:OPEN', env)).toEqual({ ok: false, malformed: true });
  });
});
