import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The lists an upstream can say have changed. */
export type UpstreamListKind = 'tools' | 'prompts' | 'resources';

/** Each list's `notifications/<kind>/list_changed` schema, for the SDK client's handlers. */
export const LIST_CHANGED_NOTIFICATIONS = [
  ['tools', ToolListChangedNotificationSchema],
  ['prompts', PromptListChangedNotificationSchema],
  ['resources', ResourceListChangedNotificationSchema],
] as const;
