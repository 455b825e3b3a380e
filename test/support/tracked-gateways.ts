import { SpawnOptions, StdioGatewayProcess } from './stdio-process';

/**
 * Every gateway child this test file started, from the moment it is spawned
 * (not from when it is ready): if a hook times out while a gateway boots, the
 * teardown still finds and kills it, and Jest is not kept alive by it.
 */
const live = new Set<StdioGatewayProcess>();

/** Like spawnReady(), but tracked for killAllGateways(). */
export async function spawnTracked(options: SpawnOptions = {}): Promise<StdioGatewayProcess> {
  const gateway = new StdioGatewayProcess(options);
  live.add(gateway);
  void gateway.exited.then(() => live.delete(gateway));
  const deadline = Date.now() + 60_000;
  while (!gateway.stderr.includes('stdio transport ready')) {
    if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) {
      throw new Error(`stdio gateway exited:\n${gateway.stderr.slice(-3000)}`);
    }
    if (Date.now() > deadline) {
      await gateway.kill();
      throw new Error(`stdio gateway did not start:\n${gateway.stderr.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return gateway;
}

/** SIGKILLs whatever is still running; for afterAll. */
export async function killAllGateways(): Promise<void> {
  await Promise.all([...live].map((gateway) => gateway.kill()));
}
