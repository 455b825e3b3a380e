import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import type { Manifest } from './k8s-manifest.types';

// Each model takes its own typed shape; parsed YAML is unchecked until validate() runs.
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

/**
 * Validates a manifest against the Kubernetes (or Prometheus Operator) JSON
 * schema of its apiVersion and kind; throws naming the offending field.
 */
export function validateAgainstSchema(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (Model === undefined) {
    throw new Error(`${manifest.file}: no schema for ${manifest.apiVersion} ${manifest.kind}`);
  }
  const resource: Record<string, unknown> = { ...manifest };
  // `file` is where the test read it from, not part of the resource.
  delete resource.file;
  new Model(resource as never).validate();
}
