/**
 * The fields of deploy/k8s's manifests that the cross-file tests read. The
 * schema validation checks every field; these types only name what is used.
 */

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

export interface HttpProbe {
  httpGet: { path: string; port: string | number };
  periodSeconds: number;
  failureThreshold: number;
}

export interface Container {
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  startupProbe: HttpProbe;
  livenessProbe: HttpProbe;
  readinessProbe: HttpProbe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext: Record<string, unknown>;
}

export interface Volume {
  name: string;
  configMap?: { name: string };
  secret?: { secretName: string; items?: { key: string; path: string }[] };
}

export type PodSpec = DeploymentManifest['spec']['template']['spec'];

export interface DeploymentManifest extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        securityContext: { runAsNonRoot?: boolean };
        containers: Container[];
        volumes: Volume[];
      };
    };
  };
}

export interface ConfigMapManifest extends Manifest {
  data: Record<string, string>;
}

export interface SecretManifest extends Manifest {
  stringData: Record<string, string>;
}

export interface ServiceManifest extends Manifest {
  spec: {
    selector: Record<string, string>;
    ports: { name: string; port: number; targetPort: string | number }[];
  };
}

export interface PodDisruptionBudgetManifest extends Manifest {
  spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
}

export interface HorizontalPodAutoscalerManifest extends Manifest {
  spec: { minReplicas: number; scaleTargetRef: { kind: string; name: string } };
}

export interface ServiceMonitorManifest extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    endpoints: {
      port: string;
      path: string;
      authorization: { credentials: { name: string; key: string } };
    }[];
  };
}
