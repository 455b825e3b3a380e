import { echoUpstream } from '../../test/support/upstream-records';
import { changedFields, diffRecords, recordHash } from './registry-diff';
import { UpstreamRecord } from './upstream-record';

function withEnv(record: UpstreamRecord, env: Record<string, string>): UpstreamRecord {
  return { ...record, stdio: { ...record.stdio!, env } };
}

describe('registry diff', () => {
  const base = echoUpstream();

  it('tells added, removed and changed servers apart; the defining file does not count', () => {
    const renamed = { ...base, file: '10-echo.yaml' };
    const other = { ...base, server_id: 'other', tool_namespace: 'other' };
    const changed = { ...other, allowed_tools: ['echo'] };
    const third = { ...base, server_id: 'third', tool_namespace: 'third' };
    expect(diffRecords([base, other], [renamed, changed, third])).toEqual({
      added: ['third'],
      removed: [],
      changed: ['other'],
    });
    expect(diffRecords([base, other], [base])).toEqual({
      added: [],
      removed: ['other'],
      changed: [],
    });
    expect(recordHash(renamed)).toBe(recordHash(base));
  });

  it('names changed fields with masked values, and a secret-only change without its value', () => {
    const before = withEnv(base, { TOKEN: 'old-secret' });
    const after = { ...withEnv(base, { TOKEN: 'new-secret' }), allowed_tools: ['echo'] };
    expect(changedFields(before, after)).toEqual([
      { field: 'allowed_tools', before: ['*'], after: ['echo'] },
    ]);
    const secretOnly = changedFields(before, withEnv(base, { TOKEN: 'new-secret' }));
    expect(secretOnly).toEqual([{ field: '(a secret value)', before: '***', after: '***' }]);
    expect(JSON.stringify(secretOnly)).not.toContain('secret"');
    expect(changedFields(before, withEnv(base, { TOKEN: 'old-secret', EXTRA: 'x' }))).toEqual([
      { field: 'stdio.env.EXTRA', before: undefined, after: '***' },
    ]);
  });
});
