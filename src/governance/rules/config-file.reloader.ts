import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { stat, statSync, Stats } from 'node:fs';
import { GATEWAY_CONFIG_SOURCE } from '../../config/config.constants';
import { loadGatewayConfig } from '../../config/config.loader';
import { GovernanceRulesUpdater } from './governance-rules.updater';

/** Editors write a file in several steps; one reload after they settle. */
const SETTLE_MS = 150;

/** How often the file's stat is compared with the last one. */
export const CONFIG_POLL_MS = 500;

/**
 * Reloads the governance rules from the config file when it changes and on
 * SIGHUP, through the real loader (file, then MCP_SERVER_* env, validated as
 * at boot); only the `governance` section is taken. A file that does not
 * load leaves the old rules in force, with the reason in the log.
 */
@Injectable()
export class ConfigFileReloader implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Governance');
  private poller?: NodeJS.Timeout;
  /** What the file was when last looked at (`missing` when it was not there). */
  private seen?: string;
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
    clearInterval(this.poller);
    this.poller = undefined;
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

  /**
   * The file's stat is polled, not watched with inotify: editors, `mv` and
   * Kubernetes' ConfigMap symlink swap replace the file's inode, so a watch
   * would have to be on the directory, and that wakes the process for every
   * write beside the config, the SQLite ledger's included (docs/performance.md).
   */
  private watch(file: string): void {
    // Taken now, synchronously: a change made from here on is seen by the first poll.
    this.seen = identityOf(statIfReadable(file));
    this.poller = setInterval(() => {
      stat(file, (err, stats) => {
        if (this.poller === undefined) return;
        const now = identityOf(err ? undefined : stats);
        if (now === this.seen) return;
        this.seen = now;
        // A removed file has nothing to load; it is read again once it is back.
        if (now === MISSING) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.reload('file'), SETTLE_MS);
        this.timer.unref();
      });
    }, CONFIG_POLL_MS);
    this.poller.unref();
  }
}

const MISSING = 'missing';

/** Inode, size and change times: what differs when the file is written or replaced. */
function identityOf(stats: Stats | undefined): string {
  return stats
    ? `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`
    : MISSING;
}

/** Unreadable counts as missing: the next poll looks again. */
function statIfReadable(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
