import type { Container, PodSpec, SecretManifest } from './k8s-manifest.types';

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

/**
 * The Secret key a container reads at `file`: the file must lie in a read-only
 * mount of a volume of that Secret, at the path the volume gives the key.
 */
export function secretKeyMountedAt(
  file: string,
  container: Container,
  podSpec: PodSpec,
  secret: SecretManifest,
): string {
  const mount = container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
  if (mount === undefined) throw new Error(`no volume is mounted at ${file}`);
  if (mount.readOnly !== true) throw new Error(`the mount at ${mount.mountPath} is writable`);
  const source = podSpec.volumes.find((v) => v.name === mount.name)?.secret;
  if (source?.secretName !== secret.metadata.name) {
    throw new Error(`${mount.mountPath} is not a volume of the Secret ${secret.metadata.name}`);
  }
  const relative = file.slice(mount.mountPath.length + 1);
  // Without items, every key of the Secret is a file named after it.
  const key = source.items ? source.items.find((i) => i.path === relative)?.key : relative;
  if (key === undefined) throw new Error(`the Secret volume projects no key at ${relative}`);
  if (secret.stringData[key] === undefined) throw new Error(`the Secret has no key ${key}`);
  return key;
}
