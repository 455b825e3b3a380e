import {
  allowsBatching,
  LATEST_PROTOCOL_VERSION,
  negotiateVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol-version';

describe('protocol version negotiation', () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS)('echoes the supported revision %s', (version) => {
    expect(negotiateVersion(version)).toBe(version);
  });

  it('treats the seeds\' "1.0" as the oldest revision', () => {
    expect(negotiateVersion('1.0')).toBe('2024-11-05');
  });

  it.each(['2099-01-01', '', 42, undefined])('answers %p with the latest revision', (requested) => {
    expect(negotiateVersion(requested)).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('allows batches only up to 2025-03-26', () => {
    expect(allowsBatching('2024-11-05')).toBe(true);
    expect(allowsBatching('2025-03-26')).toBe(true);
    expect(allowsBatching('2025-06-18')).toBe(false);
    expect(allowsBatching('2025-11-25')).toBe(false);
  });
});
