import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  kernel: string;
}

export function describeMachine(): MachineInfo {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model =
    /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  const processors = cpuinfo.split('\n').filter((line) => line.startsWith('processor')).length;
  return {
    cpuModel: model,
    cores: processors || cpus().length,
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    kernel: readFileSync('/proc/version', 'utf8').split(' ').slice(0, 3).join(' '),
  };
}

export function currentLoad(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}
