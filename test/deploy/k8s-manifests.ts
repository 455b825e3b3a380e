import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/stdio-process';
import type { Manifest } from './k8s-manifest.types';

/** Reads the manifests of deploy/k8s, in the order kustomization.yaml lists them. */

export const K8S_DIR = join(REPO_ROOT, 'deploy', 'k8s');

export function readYaml(file: string): unknown {
  return parse(readFileSync(join(K8S_DIR, file), 'utf8'));
}

/** The files kustomization.yaml lists as its resources. */
export function kustomizationResources(): string[] {
  return (readYaml('kustomization.yaml') as { resources: string[] }).resources;
}

export function readManifests(): Manifest[] {
  return kustomizationResources().map(
    (file) => ({ file, ...(readYaml(file) as object) }) as Manifest,
  );
}

/** The one manifest of a kind; throws when there is none or more than one. */
export function manifestOfKind<T extends Manifest>(
  manifests: readonly Manifest[],
  kind: string,
): T {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  if (found.length !== 1) {
    throw new Error(`expected one ${kind} in deploy/k8s, found ${found.length}`);
  }
  return found[0] as T;
}
