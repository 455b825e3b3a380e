import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadGatewayConfig } from '../../config/config.loader';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../redis/governance-redis';
import { CONFIG_POLL_MS, ConfigFileReloader } from './config-file.reloader';
import { GovernanceRules } from './governance-rules';
import { GovernanceRulesUpdater } from './governance-rules.updater';
import { GovernanceRulesValidator } from './governance-rules.validator';
import { RulesBroadcast } from './rules.broadcast';

const fileWith = (perMinute: number) =>
  `mcp_server:\n  governance:\n    default_quota:\n      max_calls_per_minute: ${perMinute}\n`;

async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

describe('ConfigFileReloader', () => {
  let dir: string;
  let file: string;
  let rules: GovernanceRules;
  let reloader: ConfigFileReloader;
  const perMinute = () => rules.current.default_quota.max_calls_per_minute;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-reload-'));
    file = join(dir, 'gateway.yaml');
    writeFileSync(file, fileWith(7));
    const config: GatewayConfig = loadGatewayConfig({ configPath: file, env: {} });
    rules = new GovernanceRules(config);
    const validator = new GovernanceRulesValidator(config);
    const broadcast = new RulesBroadcast(new GovernanceRedis(config), rules, validator);
    reloader = new ConfigFileReloader(
      new GovernanceRulesUpdater(rules, validator, broadcast),
      file,
    );
    reloader.onModuleInit();
  });

  afterEach(() => {
    reloader.onApplicationShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the governance section from the changed file', async () => {
    expect(perMinute()).toBe(7);
    writeFileSync(file, fileWith(9));
    await eventually(() => perMinute() === 9);
  });

  it('takes a file that replaced the old one (editors and mv swap the inode)', async () => {
    const replacement = join(dir, 'gateway.yaml.new');
    writeFileSync(replacement, fileWith(13));
    renameSync(replacement, file);
    await eventually(() => perMinute() === 13);
  });

  it('reloads a file that was removed and then written again', async () => {
    rmSync(file);
    await delay(CONFIG_POLL_MS * 2);
    expect(perMinute()).toBe(7);
    writeFileSync(file, fileWith(17));
    await eventually(() => perMinute() === 17);
  });

  it('is not woken by writes to other files in the directory (a ledger beside the config)', async () => {
    const reloads = jest.spyOn(reloader, 'reload');
    const sibling = join(dir, 'ledger.db-wal');
    for (let i = 0; i < 20; i++) {
      writeFileSync(sibling, `frame ${i}`);
      await delay(CONFIG_POLL_MS / 5);
    }
    expect(reloads).not.toHaveBeenCalled();
  });

  it('reloads on SIGHUP', async () => {
    // Changed while nobody watched: only the signal can make the reloader read it.
    reloader.onApplicationShutdown();
    writeFileSync(file, fileWith(11));
    reloader.onModuleInit();
    await delay(300);
    expect(perMinute()).toBe(7);
    process.emit('SIGHUP', 'SIGHUP');
    await eventually(() => perMinute() === 11);
  });

  it('keeps the rules in force when the new file is invalid', async () => {
    writeFileSync(file, fileWith(0));
    await reloader.reload('sighup');
    writeFileSync(file, 'mcp_server: [not, a, mapping]\n');
    await reloader.reload('file');
    expect(perMinute()).toBe(7);
  });
});
