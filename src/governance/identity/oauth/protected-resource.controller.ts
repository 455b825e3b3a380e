import { Controller, Get, Inject, NotFoundException, Param } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../../config/config.constants';
import { acceptsOAuth } from '../../../config/config-oauth.check';
import { GatewayConfig } from '../../../config/gateway-config';

/** RFC 9728 section 2: what a client learns about this protected resource. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
}

const WELL_KNOWN = '.well-known/oauth-protected-resource';

/**
 * The Protected Resource Metadata document (RFC 9728), at the root form and
 * at the path form of the resource URI (`/.well-known/oauth-protected-resource/mcp`
 * for `.../mcp`), which every 401 names in `resource_metadata`. It exists only
 * in the OAuth modes; without them the routes answer 404 like any unknown path.
 */
@Controller()
export class ProtectedResourceController {
  private readonly document?: ProtectedResourceMetadata;
  private readonly resourcePath: string;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    const { oauth, mode } = config.auth;
    this.resourcePath = acceptsOAuth(mode)
      ? new URL(oauth.resource).pathname.replace(/^\/+|\/+$/g, '')
      : '';
    if (!acceptsOAuth(mode)) return;
    this.document = {
      resource: oauth.resource,
      authorization_servers: oauth.issuers,
      scopes_supported: [...new Set([...oauth.required_scopes, ...Object.keys(oauth.scopes)])],
      bearer_methods_supported: ['header'],
      resource_name: config.server.name,
    };
  }

  @Get(WELL_KNOWN)
  rootForm(): ProtectedResourceMetadata {
    if (!this.document) throw new NotFoundException();
    return this.document;
  }

  @Get(`${WELL_KNOWN}/*path`)
  pathForm(@Param('path') path: string[] | string): ProtectedResourceMetadata {
    const asked = (Array.isArray(path) ? path.join('/') : path).replace(/\/+$/, '');
    if (!this.document || asked !== this.resourcePath) throw new NotFoundException();
    return this.document;
  }
}
