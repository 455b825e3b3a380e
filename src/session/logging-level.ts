/** MCP logging levels (RFC 5424 severities), least severe first. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);
}

export function isAtOrAbove(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}
