import { GatewayError } from '../errors/gateway.error';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';

/** What a subscriptions/listen asks for (2026-07-28, basic/patterns/subscriptions). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose notifications/tasks the client wants (ext-tasks); checked against the caller. */
  taskIds?: string[];
}

const LIST_CHANGED: ReadonlyArray<[keyof ListenFilter, string]> = [
  ['toolsListChanged', 'notifications/tools/list_changed'],
  ['promptsListChanged', 'notifications/prompts/list_changed'],
  ['resourcesListChanged', 'notifications/resources/list_changed'],
];

/**
 * The filter of a listen request, checked: booleans are booleans, URIs are
 * strings, at most `maxUris` of them (the same cap as resources/subscribe,
 * `limits.subscriptions_per_session`, enforced by the caller).
 */
export function readListenFilter(params: JsonRpcParams): ListenFilter {
  const raw = params.notifications;
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw GatewayError.invalidParams('params.notifications must be an object', {
      field: 'notifications',
    });
  }
  const given = raw as Record<string, unknown>;
  const filter: ListenFilter = {};
  for (const [key] of LIST_CHANGED) {
    const value = given[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') {
      throw GatewayError.invalidParams(`notifications.${key} must be a boolean`, {
        field: `notifications.${key}`,
      });
    }
    if (value) filter[key] = true as never;
  }
  const uris = given.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri): uri is string => typeof uri === 'string')) {
      throw GatewayError.invalidParams(
        'notifications.resourceSubscriptions must be an array of URIs',
        {
          field: 'notifications.resourceSubscriptions',
        },
      );
    }
    filter.resourceSubscriptions = [...new Set(uris)];
  }
  const taskIds = given.taskIds;
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || !taskIds.every((id): id is string => typeof id === 'string')) {
      throw GatewayError.invalidParams('notifications.taskIds must be an array of task ids', {
        field: 'notifications.taskIds',
      });
    }
    filter.taskIds = [...new Set(taskIds)];
  }
  return filter;
}

/** Whether a notification is one the filter opted in to. */
export function passesFilter(filter: ListenFilter, method: string, params: unknown): boolean {
  for (const [key, listed] of LIST_CHANGED) if (listed === method) return filter[key] === true;
  if (method === 'notifications/tasks') {
    const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
    return typeof taskId === 'string' && (filter.taskIds ?? []).includes(taskId);
  }
  if (method === 'notifications/resources/updated') {
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    return typeof uri === 'string' && (filter.resourceSubscriptions ?? []).includes(uri);
  }
  return false;
}
