import { Injectable, Optional } from '@nestjs/common';
import { QuotaPolicy } from '../governance/quota/quota.policy';
import { RegisteredTool } from './registered-tool';
import { ToolListEntry } from './tool-list.cache';
import { META_RATE_LIMITS } from './tools.constants';

/**
 * The `owlclaw/rateLimits` hint of one tools/list entry, for the client that
 * asks and the rules in force now (governance's QuotaPolicy). It is added
 * per call to the shared cached entry, so no client sees another's numbers.
 * Without governance in the graph only the handler's own limits count.
 */
@Injectable()
export class ToolLimitHints {
  constructor(@Optional() private readonly quotas?: QuotaPolicy) {}

  /** The entry as this client sees it: a copy carrying its limits, or the entry itself when none. */
  annotate(entry: ToolListEntry, tool: RegisteredTool, clientId: string): ToolListEntry {
    const handler = tool.options.rateLimits;
    const limits = this.quotas ? this.quotas.listedLimits(clientId, tool.name, handler) : handler;
    if (limits === undefined) return entry;
    return { ...entry, _meta: { ...entry._meta, [META_RATE_LIMITS]: limits } };
  }
}
