import { Injectable } from '@nestjs/common';

/**
 * Whether a client may see (and therefore read) a resource. Lists and reads
 * ask the same question here; per-client rules arrive with governance.
 */
@Injectable()
export class ResourceVisibility {
  isVisible(_uri: string, _clientId: string): boolean {
    return true;
  }
}
