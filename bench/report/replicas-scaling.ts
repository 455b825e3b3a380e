import { CpuPerRequest, ReplicasCell } from './results';

/** Replica counts the expected-scaling table lists. */
export const PROJECTED_REPLICAS = [1, 2, 4, 8, 16] as const;

export interface ScalingProjection {
  replicas: number;
  /** Expected req/s: the replicas' CPU bound, capped by Redis's one thread when that is lower. */
  rps: number;
  limitedBy: 'gateways' | 'redis';
}

/** CPU time of every process on a request's path together (µs), Redis counted when it was read. */
export function totalCpuUs(cpu: CpuPerRequest): number {
  const redis = Number.isFinite(cpu.redisUs) ? cpu.redisUs : 0;
  return cpu.gatewaysUs + cpu.proxyUs + cpu.loadGeneratorUs + redis;
}

/** req/s at which `cores` cores would be busy with nothing but this cell's requests. */
export function cpuCeilingRps(cell: ReplicasCell, cores: number): number {
  return (cores * 1e6) / totalCpuUs(cell.cpu);
}

/**
 * Expected req/s with N replicas on a core each, the load generator and the
 * balancer elsewhere: N cores' worth of the gateway CPU one request costs,
 * until redis-server (one thread for commands) is busy all the time.
 */
export function projectScaling(cpu: CpuPerRequest): ScalingProjection[] {
  const redisCap = cpu.redisUs > 0 ? 1e6 / cpu.redisUs : Infinity;
  return PROJECTED_REPLICAS.map((replicas) => {
    const gateways = (replicas * 1e6) / cpu.gatewaysUs;
    return gateways <= redisCap
      ? { replicas, rps: gateways, limitedBy: 'gateways' }
      : { replicas, rps: redisCap, limitedBy: 'redis' };
  });
}

/** The cell the projection reads: two replicas at the most connections measured. */
export function projectionCell(cells: readonly ReplicasCell[]): ReplicasCell | undefined {
  return cells
    .filter((cell) => cell.target === 'two-replicas')
    .reduce<ReplicasCell | undefined>(
      (best, cell) => (best === undefined || cell.connections > best.connections ? cell : best),
      undefined,
    );
}
