import { Inject, Injectable, Logger, UseGuards } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { GatewayError } from '../errors/gateway.error';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { ALL_PROTOCOL_VERSIONS, negotiateVersion } from '../json-rpc/protocol-version';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { clippedJson, clipText } from '../logging/clipped-text';
import { isLoggingLevel, LOGGING_LEVELS } from '../session/logging-level';
import { InitializeParamsDto } from './initialize.dto';
import { rpcValidationPipe } from './rpc-validation.pipe';
import { SessionMetadataGuard } from './session-metadata.guard';
import { GATEWAY_VERSION } from './server-info';
import { SessionRegistry } from '../session/session.registry';
import { ServerCapabilities } from './server-capabilities.service';

/** The MCP lifecycle: handshake, discovery, liveness, logging level and cancellation. */
@Injectable()
export class LifecycleMethods {
  private readonly logger = new Logger(LifecycleMethods.name);

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly capabilities: ServerCapabilities,
    private readonly sessions: SessionRegistry,
  ) {}

  @McpMethod('initialize', { beforeInitialize: true })
  @UseGuards(SessionMetadataGuard)
  async initialize(
    @McpParams(rpcValidationPipe) params: InitializeParamsDto,
    @McpContext() ctx: McpRequestContext,
  ) {
    const { session } = ctx;
    if (session.initialized) {
      throw GatewayError.invalidRequest('session is already initialized');
    }
    const protocolVersion = negotiateVersion(params.protocolVersion);
    session.protocolVersion = protocolVersion;
    session.clientInfo = params.clientInfo;
    session.clientCapabilities = params.capabilities ?? {};
    session.initialized = true;
    const logged = this.config.limits.logged_client_info_bytes;
    const client = clippedJson(params.clientInfo, logged);
    this.logger.log({
      msg: 'session initialized',
      sessionId: session.id,
      clientId: session.clientId,
      transport: session.transport,
      requested: clipText(params.protocolVersion, logged),
      protocolVersion,
      client: client.text,
      ...(client.fullLength === undefined ? {} : { clientInfoChars: client.fullLength }),
    });
    // Shared before the client hears the answer: its next request may reach another replica.
    await this.sessions.persist(session);
    return {
      protocolVersion,
      capabilities: this.capabilities.snapshot(true),
      serverInfo: {
        name: this.config.server.name,
        title: 'OwlClaw MCP Gateway',
        version: GATEWAY_VERSION,
      },
      instructions: this.config.server.instructions,
    };
  }

  /**
   * server/discover (2026-07-28): every revision served, the capabilities and
   * the instructions, without a session. The revision's own fields (resultType,
   * serverInfo in _meta, caching hints) are added for modern requests.
   */
  @McpMethod('server/discover', { beforeInitialize: true })
  discover(@McpContext() ctx: McpRequestContext) {
    // stdio serves the session-based revisions only: a non-modern error sends a dual-era
    // client's probe back to initialize (2026-07-28, stdio "Backward Compatibility").
    if (ctx.transport === 'stdio') throw GatewayError.methodNotFound(ctx.method);
    return {
      supportedVersions: [...ALL_PROTOCOL_VERSIONS],
      capabilities: this.capabilities.snapshot(),
      instructions: this.config.server.instructions,
    };
  }

  @McpMethod('notifications/initialized', { beforeInitialize: true })
  initialized(@McpContext() ctx: McpRequestContext): void {
    this.logger.debug({ msg: 'client ready', sessionId: ctx.session.id });
  }

  @McpMethod('ping', { beforeInitialize: true })
  ping(): Record<string, never> {
    return {};
  }

  @McpMethod('logging/setLevel')
  async setLevel(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<Record<string, never>> {
    if (!isLoggingLevel(params.level)) {
      throw GatewayError.invalidParams(`level must be one of ${LOGGING_LEVELS.join(', ')}`, {
        field: 'level',
        received: params.level ?? null,
      });
    }
    ctx.session.logLevel = params.level;
    await this.sessions.persist(ctx.session);
    return {};
  }

  @McpMethod('notifications/cancelled', { beforeInitialize: true })
  cancelled(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext): void {
    const { requestId, reason } = params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const found = ctx.session.cancelRequest(
      requestId,
      typeof reason === 'string' ? reason : 'cancelled by client',
    );
    this.logger.debug({ msg: 'cancel', sessionId: ctx.session.id, requestId, found });
  }
}
