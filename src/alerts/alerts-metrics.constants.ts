/** Prometheus metric names owned by alerts. */
export const MCP_ALERTS_FIRING = 'mcp_alerts_firing';
export const MCP_ALERT_NOTIFICATIONS_TOTAL = 'mcp_alert_notifications_total';
export const MCP_ALERT_EVALUATIONS_TOTAL = 'mcp_alert_evaluations_total';

/** What became of one notification to one webhook. */
export const NOTIFICATION_OUTCOMES = ['sent', 'failed', 'dropped'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];
