import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import * as path from 'node:path';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { scanRegistry } from './registry.scanner';
import { UpstreamRegistry } from './upstream-registry';

/**
 * Holds the upstream registry: scanned once when the gateway starts, with one
 * log line per rejected file or warning and a summary. Nothing connects to an
 * upstream yet; later steps read `current`.
 */
@Injectable()
export class UpstreamRegistryService implements OnModuleInit {
  private readonly logger = new Logger('Upstreams');
  private snapshot?: UpstreamRegistry;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  onModuleInit(): void {
    const { registry_dir, strict } = this.config.upstreams;
    this.snapshot = scanRegistry(path.resolve(registry_dir), process.env, { strict });
    this.report(this.snapshot);
  }

  get current(): UpstreamRegistry {
    if (!this.snapshot) throw new Error('the upstream registry is read before the module started');
    return this.snapshot;
  }

  private report(registry: UpstreamRegistry): void {
    for (const rejected of registry.rejected) {
      this.logger.warn({
        msg: 'upstream registry file rejected',
        file: rejected.file,
        server_id: rejected.serverId,
        reason: rejected.reason,
      });
    }
    for (const warning of registry.warnings) {
      this.logger.warn({ msg: 'upstream registry warning', warning });
    }
    this.logger.log({
      msg: 'upstream registry loaded',
      dir: registry.dir,
      servers: registry.servers.length,
      server_ids: registry.servers.map((server) => server.server_id),
      rejected: registry.rejected.length,
      warnings: registry.warnings.length,
      revision: registry.revision,
    });
  }
}
