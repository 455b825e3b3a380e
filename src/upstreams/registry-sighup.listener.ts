import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { UpstreamRegistryService } from './upstream-registry.service';

/**
 * SIGHUP scans the registry again. Having a listener also keeps Node from
 * treating SIGHUP as fatal, as it does by default.
 */
@Injectable()
export class RegistrySighupListener implements OnModuleInit, OnApplicationShutdown {
  private readonly onSighup = (): void => void this.registry.rescan('sighup');

  constructor(private readonly registry: UpstreamRegistryService) {}

  onModuleInit(): void {
    process.on('SIGHUP', this.onSighup);
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.onSighup);
  }
}
