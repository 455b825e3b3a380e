import { approvalMessage } from './upstream-tool.approval';
import { APPROVAL_ARGUMENTS_SUMMARY_CHARS } from './upstream-relay.limits';
import type { UpstreamRecord } from './upstream-record';

const record = { server_id: 'github', display_name: 'GitHub' } as UpstreamRecord;

describe('approvalMessage', () => {
  it('names the server, the tool, the exposed name and the arguments', () => {
    const message = approvalMessage(record, 'create_issue', 'github__create_issue', {
      title: 'Bug',
    });
    expect(message).toContain('"create_issue"');
    expect(message).toContain('GitHub (github)');
    expect(message).toContain('github__create_issue');
    expect(message).toContain('{"title":"Bug"}');
  });

  it('shows at most the summary limit of the arguments and says how much is left out', () => {
    const message = approvalMessage(record, 'create_issue', 'github__create_issue', {
      body: 'x'.repeat(10_000),
    });
    expect(message.length).toBeLessThan(APPROVAL_ARGUMENTS_SUMMARY_CHARS + 300);
    expect(message).toMatch(/\(\d+ more characters not shown\)$/);
  });
});
