import { CpuPerRequest } from '../report/results';
import { ChildServer } from './child';
import { median } from './stats';

/** The processes one load run's requests pass through, and how to read their CPU time (ms). */
export interface RequestPath {
  gateways: readonly ChildServer[];
  proxy?: ChildServer;
  /** redis-server's CPU time, when the gateways use Redis. */
  redisCpuMs?: () => Promise<number>;
}

/** CPU time used so far (ms), per process kind. */
interface CpuReading {
  gatewaysMs: number;
  proxyMs: number;
  loadGeneratorMs: number;
  redisMs: number;
}

/**
 * Reads the CPU time of every process on the path (gateways and proxy from
 * /proc, this process with process.cpuUsage, Redis from INFO cpu) before a
 * run; the function it returns reads it again and divides by the requests.
 */
export async function startCpuReading(
  path: RequestPath,
): Promise<(requests: number) => Promise<CpuPerRequest>> {
  const before = await read(path);
  return async (requests) => {
    const after = await read(path);
    const perRequest = (key: keyof CpuReading) =>
      requests > 0 ? ((after[key] - before[key]) * 1000) / requests : NaN;
    return {
      gatewaysUs: perRequest('gatewaysMs'),
      proxyUs: perRequest('proxyMs'),
      loadGeneratorUs: perRequest('loadGeneratorMs'),
      redisUs: perRequest('redisMs'),
    };
  };
}

/** Median of each field over the runs. */
export function medianCpu(runs: readonly CpuPerRequest[]): CpuPerRequest {
  const of = (key: keyof CpuPerRequest) => median(runs.map((run) => run[key]));
  return {
    gatewaysUs: of('gatewaysUs'),
    proxyUs: of('proxyUs'),
    loadGeneratorUs: of('loadGeneratorUs'),
    redisUs: of('redisUs'),
  };
}

async function read(path: RequestPath): Promise<CpuReading> {
  const own = process.cpuUsage();
  return {
    gatewaysMs: path.gateways.reduce((total, gateway) => total + gateway.cpuMs(), 0),
    proxyMs: path.proxy?.cpuMs() ?? 0,
    loadGeneratorMs: (own.user + own.system) / 1000,
    redisMs: path.redisCpuMs ? await path.redisCpuMs() : 0,
  };
}
