import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { GATEWAY_CONFIG_SOURCE } from '../../config/config.constants';
import { loadGatewayConfig } from '../../config/config.loader';
import { GovernanceRulesUpdater } from './governance-rules.updater';

/** Editors write a file in several steps; one reload after they settle. */
const SETTLE_MS = 150;

/**
 * Reloads the governance rules from the config file when it changes and on
 * SIGHUP, through the real loader (file, then MCP_SERVER_* env, validated as
 * at boot); only the `governance` section is taken. A file that does not
 * load leaves the old rules in force, with the reason in the log.
 */
@Injectable()
export class ConfigFileReloader implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Governance');
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private readonly onSighup = () => void this.reload('sighup');

  constructor(
    private readonly updater: GovernanceRulesUpdater,
    @Optional() @Inject(GATEWAY_CONFIG_SOURCE) private readonly source?: string,
  ) {}

  onModuleInit(): void {
    process.on('SIGHUP', this.onSighup);
    if (this.source) this.watch(this.source);
  }

  onApplicationShutdown(): void {
    process.off('SIGHUP', this.onSighup);
    clearTimeout(this.timer);
    this.watcher?.close();
  }

  /** Resolves once the file has been read and the rules replaced (or kept). */
  async reload(trigger: 'file' | 'sighup'): Promise<void> {
    let governance: unknown;
    try {
      governance = loadGatewayConfig({ configPath: this.source, env: process.env }).governance;
    } catch (err) {
      this.logger.warn({
        msg: 'config not reloaded; the old governance rules stay',
        trigger,
        file: this.source,
        reason: err instanceof Error ? err.message : String(err),
      });
      return;
    }
    await this.updater.update(governance, trigger);
  }

  /** The directory is watched, not the file: editors and `mv` replace the file's inode. */
  private watch(file: string): void {
    const name = basename(file);
    try {
      this.watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.reload('file'), SETTLE_MS);
        this.timer.unref();
      });
      this.watcher.on('error', (err) =>
        this.logger.warn({ msg: 'config file watch stopped', file, error: err.message }),
      );
    } catch (err) {
      this.logger.warn({ msg: 'config file not watched', file, error: String(err) });
    }
  }
}
