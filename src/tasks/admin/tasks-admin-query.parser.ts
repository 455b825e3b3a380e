import { invalidAdminQuery } from '../../admin/admin-query.error';
import { TaskFilter } from '../task-record';
import { TASK_STATUSES, TaskStatus } from '../tasks.constants';
import { CLIENT_FILTER_MAX_CHARS, TASKS_PAGE_DEFAULT, TASKS_PAGE_MAX } from './tasks-admin.query';

const KNOWN = ['client', 'state', 'limit'];

/** Validates GET /admin/tasks's query string; a bad filter is a 400 that names it. */
export function parseTasksAdminQuery(raw: Record<string, unknown>): TaskFilter {
  const unknown = Object.keys(raw).filter((key) => !KNOWN.includes(key));
  if (unknown.length > 0) {
    throw invalidAdminQuery(unknown[0], `unknown filter; the filters are ${KNOWN.join(', ')}`);
  }
  const text = (field: string): string | undefined => {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidAdminQuery(field, 'must be given once');
    if (value === '') throw invalidAdminQuery(field, 'must not be empty');
    return value;
  };

  const filter: TaskFilter = { limit: parseLimit(text('limit')) };
  const client = text('client');
  if (client !== undefined) {
    if (client.length > CLIENT_FILTER_MAX_CHARS) {
      throw invalidAdminQuery('client', `must be at most ${CLIENT_FILTER_MAX_CHARS} characters`);
    }
    filter.clientId = client;
  }
  const state = text('state');
  if (state !== undefined) filter.status = parseState(state);
  return filter;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return TASKS_PAGE_DEFAULT;
  const limit = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= TASKS_PAGE_MAX)) {
    throw invalidAdminQuery(
      'limit',
      `must be an integer from 1 to ${TASKS_PAGE_MAX}, got "${shown(value)}"`,
    );
  }
  return limit;
}

function parseState(value: string): TaskStatus {
  const state = TASK_STATUSES.find((known) => known === value);
  if (state === undefined) {
    throw invalidAdminQuery(
      'state',
      `must be one of ${TASK_STATUSES.join(', ')}, got "${shown(value)}"`,
    );
  }
  return state;
}

/** A bad value echoed in the message, cut so a hostile one cannot fill the answer. */
function shown(value: string): string {
  return value.length <= 40 ? value : `${value.slice(0, 40)}…`;
}
