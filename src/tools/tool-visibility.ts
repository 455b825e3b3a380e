import { Injectable } from '@nestjs/common';
import { RegisteredTool } from './registered-tool';

/**
 * Whether a client may see (and therefore call) a tool. Lists and calls ask
 * the same question here, so what is hidden from a list is also refused.
 */
@Injectable()
export class ToolVisibility {
  isVisible(tool: RegisteredTool, _clientId: string): boolean {
    return tool.options.visibility !== 'hidden';
  }
}
