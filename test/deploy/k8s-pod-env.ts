import type { Container, SecretManifest } from './k8s-manifest.types';

/**
 * The environment a container of the Deployment sees: its literal values and
 * its secretKeyRef values looked up in the Secret's stringData, so the config
 * can be loaded exactly as the pod would load it.
 */
export function containerEnvironment(
  container: Container,
  secret: SecretManifest,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of container.env) {
    if (entry.value !== undefined) {
      env[entry.name] = entry.value;
      continue;
    }
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref === undefined) {
      throw new Error(`env ${entry.name}: only value and secretKeyRef are read`);
    }
    if (ref.name !== secret.metadata.name) {
      throw new Error(`env ${entry.name}: unknown Secret ${ref.name}`);
    }
    const value = secret.stringData[ref.key];
    if (value === undefined) throw new Error(`env ${entry.name}: the Secret has no key ${ref.key}`);
    env[entry.name] = value;
  }
  return env;
}

/** The seconds of a `preStop: exec: [sleep, N]` hook. */
export function preStopSleepSeconds(container: Container): number {
  const command = container.lifecycle?.preStop?.exec?.command;
  if (command?.length !== 2 || command[0] !== 'sleep') {
    throw new Error(`preStop is not "sleep N": ${JSON.stringify(command)}`);
  }
  return Number(command[1]);
}
