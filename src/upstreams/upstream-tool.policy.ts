import { anyGlobMatches } from '../governance/visibility/glob-match';
import { Approval, UpstreamRecord } from './upstream-record';

/*
 * What a registry record says about one of the upstream's tools, by its own
 * name (without the namespace). Rules that can disagree resolve to the safer
 * answer, so the order of patterns in a file never matters.
 */

/** Exposed when an allowed_tools pattern matches and no denied_tools pattern does. */
export function isToolExposed(record: UpstreamRecord, tool: string): boolean {
  return anyGlobMatches(record.allowed_tools, tool) && !anyGlobMatches(record.denied_tools, tool);
}

/** `always` when any matching pattern says always; else `never` when one matches; else the default. */
export function approvalFor(record: UpstreamRecord, tool: string): Approval {
  const matching = Object.entries(record.approval_policy.tools)
    .filter(([pattern]) => anyGlobMatches([pattern], tool))
    .map(([, approval]) => approval);
  if (matching.includes('always')) return 'always';
  return matching.length > 0 ? 'never' : record.approval_policy.default;
}

/** The highest cost among the matching patterns; the default when none matches. */
export function costFor(record: UpstreamRecord, tool: string): number {
  const matching = Object.entries(record.cost.tools)
    .filter(([pattern]) => anyGlobMatches([pattern], tool))
    .map(([, cost]) => cost);
  return matching.length > 0 ? Math.max(...matching) : record.cost.default;
}
