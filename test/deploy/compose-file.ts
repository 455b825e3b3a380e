import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/stdio-process';

/** The fields of a compose file that the deploy tests read. */
export interface ComposeService {
  build?: unknown;
  environment?: Record<string, string>;
  secrets?: (string | { source: string; target?: string })[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, { file?: string }>;
}

/** A compose file of the repository root, with its `<<:` merge keys applied as Compose does. */
export function readComposeFile(name: string): ComposeFile {
  return parse(readFileSync(join(REPO_ROOT, name), 'utf8'), { merge: true }) as ComposeFile;
}

/** The services built from the repository's Dockerfile: the gateway replicas. */
export function gatewayReplicas(compose: ComposeFile): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, service]) => service.build !== undefined);
}

/** The secrets a service lists, by the path it sees them at (/run/secrets/<target or name>). */
export function secretsByPath(service: ComposeService): Map<string, string> {
  return new Map(
    (service.secrets ?? []).map((entry) => {
      const { source, target = source } = typeof entry === 'string' ? { source: entry } : entry;
      return [target.startsWith('/') ? target : `/run/secrets/${target}`, source];
    }),
  );
}
