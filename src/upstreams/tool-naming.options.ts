import type { UpstreamsConfig } from '../config/gateway-config';

/** How upstream tool names become the names clients see (`upstreams.separator`, `upstreams.allow_dots`). */
export interface ToolNamingOptions {
  /** Joins namespace and tool; validated by the config (1 to 4 of `_` `-`, and `.` with dots). */
  separator: string;
  /** Lets `.` appear in exposed names; some clients refuse such names. */
  allowDots: boolean;
}

export function toolNamingOptions(upstreams: UpstreamsConfig): ToolNamingOptions {
  return { separator: upstreams.separator, allowDots: upstreams.allow_dots };
}
