import { GatewayError } from '../errors/gateway.error';
import { callsAsTask, taskSupportOf } from './upstream-task-support';

describe('upstream task support', () => {
  it("maps the tool's execution.taskSupport: optional and required; forbidden, absent or unknown is none", () => {
    expect(taskSupportOf({ execution: { taskSupport: 'optional' } })).toBe('optional');
    expect(taskSupportOf({ execution: { taskSupport: 'required' } })).toBe('required');
    expect(taskSupportOf({ execution: { taskSupport: 'forbidden' } })).toBeUndefined();
    expect(taskSupportOf({ execution: {} })).toBeUndefined();
    expect(taskSupportOf({})).toBeUndefined();
    const odd = { execution: { taskSupport: 'always' } } as unknown as Parameters<
      typeof taskSupportOf
    >[0];
    expect(taskSupportOf(odd)).toBeUndefined();
  });

  const withTasks = { tasks: { requests: { tools: { call: {} } } } };

  it('augments a call when the tool declares task support and the server accepts task-augmented tools/call', () => {
    expect(callsAsTask('up', 'tool', 'required', withTasks)).toBe(true);
    expect(callsAsTask('up', 'tool', 'optional', withTasks)).toBe(true);
    expect(callsAsTask('up', 'tool', undefined, withTasks)).toBe(false);
  });

  it('calls an optional tool plainly on a server without the capability', () => {
    expect(callsAsTask('up', 'tool', 'optional', {})).toBe(false);
    expect(callsAsTask('up', 'tool', 'optional', { tasks: { list: {} } })).toBe(false);
    expect(callsAsTask('up', 'tool', 'optional', undefined)).toBe(false);
  });

  it('refuses a required tool on a server without the capability, saying why', () => {
    const refusal = (() => {
      try {
        return callsAsTask('up', 'deep_scan', 'required', { tools: {} });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).message).toBe(
      'Upstream up declares that deep_scan runs only as a task, but not the tasks.requests.tools.call capability a task needs',
    );
    expect((refusal as GatewayError).data).toMatchObject({
      code: 'mcp_upstream_error',
      server_id: 'up',
      tool: 'deep_scan',
    });
  });
});
