import { Injectable, Optional } from '@nestjs/common';
import { VisibilityPolicy } from '../governance/visibility/visibility.policy';

/**
 * Whether a client may see (and therefore read) a resource. Lists and reads
 * ask the same question here; the answer is governance's VisibilityPolicy
 * (per-client globs over `skill://` URIs). Without governance in the graph
 * everything is visible.
 */
@Injectable()
export class ResourceVisibility {
  constructor(@Optional() private readonly policy?: VisibilityPolicy) {}

  isVisible(uri: string, clientId: string): boolean {
    return this.policy?.isResourceVisible(uri, clientId) ?? true;
  }
}
