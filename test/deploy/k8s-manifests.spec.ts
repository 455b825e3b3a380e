import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { CONFIG_PATH_ENV } from '../../src/config/config-env.reader';
import { loadGatewayConfig } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { requestStateSecret } from '../../src/json-rpc/mrtr/request-state.secret';
import { METRICS_TOKEN_ENV } from '../../src/observability/metrics-token.guard';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { REPO_ROOT } from '../support/stdio-process';
import type {
  ConfigMapManifest,
  DeploymentManifest,
  HorizontalPodAutoscalerManifest,
  HttpProbe,
  PodDisruptionBudgetManifest,
  SecretManifest,
  ServiceManifest,
  ServiceMonitorManifest,
} from './k8s-manifest.types';
import { K8S_DIR, kustomizationResources, manifestOfKind, readManifests } from './k8s-manifests';
import { containerEnvironment, preStopSleepSeconds, secretKeyMountedAt } from './k8s-pod-env';

/**
 * The facts that tie deploy/k8s's files to each other and to the gateway:
 * the ConfigMap loads with the gateway's own loader as the pod would load it,
 * ports and names line up, the probes answer on a real gateway, and the stop
 * sequence fits inside the grace period.
 */

const PLACEHOLDER = 'REPLACE-ME';

const manifests = readManifests();
const deployment = manifestOfKind<DeploymentManifest>(manifests, 'Deployment');
const configMap = manifestOfKind<ConfigMapManifest>(manifests, 'ConfigMap');
const secret = manifestOfKind<SecretManifest>(manifests, 'Secret');
const service = manifestOfKind<ServiceManifest>(manifests, 'Service');
const serviceMonitor = manifestOfKind<ServiceMonitorManifest>(manifests, 'ServiceMonitor');
const podSpec = deployment.spec.template.spec;
const container = podSpec.containers[0];
const podLabels = deployment.spec.template.metadata.labels;

let configDir: string;

/**
 * The config as the pod loads it: the mounted ConfigMap file and the container's env, with
 * the admin and metrics placeholders replaced as an operator must (they are too short to start).
 */
function podConfig(): GatewayConfig {
  const env: Record<string, string> = {
    ...containerEnvironment(container, secret),
    [ADMIN_TOKEN_ENV]: randomBytes(32).toString('hex'),
    [METRICS_TOKEN_ENV]: randomBytes(32).toString('hex'),
  };
  const configPath = env[CONFIG_PATH_ENV];
  const mount = container.volumeMounts.find((m) => configPath.startsWith(`${m.mountPath}/`));
  if (mount === undefined) throw new Error(`no volume is mounted at ${configPath}`);
  const volume = podSpec.volumes.find((v) => v.name === mount.name);
  expect(volume?.configMap?.name).toBe(configMap.metadata.name);
  const key = configPath.slice(mount.mountPath.length + 1);
  expect(Object.keys(configMap.data)).toContain(key);
  return loadGatewayConfig({
    cwd: REPO_ROOT,
    env: { ...env, [CONFIG_PATH_ENV]: join(configDir, key) },
  });
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([name, value]) => labels[name] === value);
}

function drainDelaySeconds(config: GatewayConfig): number {
  return config.http.drain_delay_seconds;
}

beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), 'owlclaw-k8s-config-'));
  for (const [key, text] of Object.entries(configMap.data)) {
    writeFileSync(join(configDir, key), text);
  }
});

afterAll(() => rmSync(configDir, { recursive: true, force: true }));

describe('deploy/k8s', () => {
  it('kustomization.yaml lists every manifest of the directory', () => {
    const files = readdirSync(K8S_DIR).filter(
      (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
    );
    expect([...kustomizationResources()].sort()).toEqual(files.sort());
  });

  it("the ConfigMap's mcp-server.yaml alone is a valid scale-out http config", () => {
    const config = loadGatewayConfig({
      cwd: REPO_ROOT,
      env: {},
      configPath: join(configDir, 'mcp-server.yaml'),
    });
    expect(config.transport).toBe('http');
    expect(config.http.host).toBe('0.0.0.0');
    expect(config.state.driver).toBe('redis');
    expect(config.ledger.driver).toBe('postgres');
  });

  it('the pod loads redis state and the postgres ledger, with the URL and keys from the Secret', () => {
    const config = podConfig();
    expect(config.transport).toBe('http');
    expect(config.state.driver).toBe('redis');
    expect(config.ledger.driver).toBe('postgres');
    expect(config.ledger.postgres_url).toBe(secret.stringData.MCP_SERVER_LEDGER_POSTGRES_URL);
    expect(config.auth.mode).toBe('api_key');
    expect(config.auth.api_keys).toEqual(secret.stringData.MCP_SERVER_AUTH_API_KEYS.split(','));
  });

  it('every replica signs requestState with the one key of the Secret, mounted as a file', () => {
    const ref = podConfig().mrtr.state_secret_ref;
    expect(ref).toMatch(/^file:\//);
    const file = ref.slice('file:'.length);
    const key = secretKeyMountedAt(file, container, podSpec, secret);
    // The file as the kubelet writes it, read by the gateway's own reader.
    const mounted = join(configDir, 'mounted', file);
    mkdirSync(join(mounted, '..'), { recursive: true });
    writeFileSync(mounted, secret.stringData[key]);
    expect(requestStateSecret(`file:${mounted}`).toString('utf8')).toBe(secret.stringData[key]);
  });

  it('Service targetPort, container port and the configured port are one port', () => {
    const config = podConfig();
    const [servicePort] = service.spec.ports;
    const containerPort = container.ports.find(
      (p) => p.name === servicePort.targetPort || p.containerPort === servicePort.targetPort,
    );
    expect(containerPort?.containerPort).toBe(config.http.port);
    for (const probe of [
      container.startupProbe,
      container.livenessProbe,
      container.readinessProbe,
    ]) {
      expect([containerPort?.name, containerPort?.containerPort]).toContain(probe.httpGet.port);
    }
  });

  it('the selectors of the Service, PDB and ServiceMonitor find the pods and the Service', () => {
    expect(matches(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(matches(service.spec.selector, podLabels)).toBe(true);
    const pdb = manifestOfKind<PodDisruptionBudgetManifest>(manifests, 'PodDisruptionBudget');
    expect(matches(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
    expect(matches(serviceMonitor.spec.selector.matchLabels, service.metadata.labels!)).toBe(true);
    const hpa = manifestOfKind<HorizontalPodAutoscalerManifest>(
      manifests,
      'HorizontalPodAutoscaler',
    );
    expect(hpa.spec.scaleTargetRef).toMatchObject({
      kind: 'Deployment',
      name: deployment.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThan(pdb.spec.minAvailable);
  });

  it('the grace period outlasts the preStop sleep plus the shutdown deadline', () => {
    const config = podConfig();
    const preStop = preStopSleepSeconds(container);
    expect(podSpec.terminationGracePeriodSeconds).toBeGreaterThan(
      preStop + config.limits.shutdown_deadline_seconds,
    );
  });

  it('the preStop sleep matches the drain delay, and readiness notices a drain within it', () => {
    const delay = drainDelaySeconds(podConfig());
    expect(preStopSleepSeconds(container)).toBe(delay);
    const readiness = container.readinessProbe;
    expect(readiness.periodSeconds * readiness.failureThreshold).toBeLessThanOrEqual(delay);
  });

  it('the ServiceMonitor scrapes /metrics on the Service port with the metrics token', () => {
    const [endpoint] = serviceMonitor.spec.endpoints;
    expect(endpoint.port).toBe(service.spec.ports[0].name);
    expect(endpoint.path).toBe('/metrics');
    expect(endpoint.authorization.credentials).toEqual({
      name: secret.metadata.name,
      key: METRICS_TOKEN_ENV,
    });
    const env = containerEnvironment(container, secret);
    expect(env[METRICS_TOKEN_ENV]).toBe(secret.stringData[METRICS_TOKEN_ENV]);
    expect(env[ADMIN_TOKEN_ENV]).toBe(secret.stringData[ADMIN_TOKEN_ENV]);
  });

  it('does not start with the admin or metrics token placeholder left in place', () => {
    const env = containerEnvironment(container, secret);
    expect(() =>
      loadGatewayConfig({ cwd: REPO_ROOT, env: { [ADMIN_TOKEN_ENV]: env[ADMIN_TOKEN_ENV] } }),
    ).toThrow(/MCP_SERVER_ADMIN_TOKEN: is \d+ characters long; it must be at least 32/);
    expect(() =>
      loadGatewayConfig({ cwd: REPO_ROOT, env: { [METRICS_TOKEN_ENV]: env[METRICS_TOKEN_ENV] } }),
    ).toThrow(/MCP_SERVER_METRICS_TOKEN: is \d+ characters long/);
  });

  it('every Secret value is a marked placeholder', () => {
    const placeholderHash = createHash('sha256').update(PLACEHOLDER).digest('hex');
    for (const [key, value] of Object.entries(secret.stringData)) {
      const marked = value.includes(PLACEHOLDER) || value.endsWith(`:${placeholderHash}`);
      expect({ key, marked }).toEqual({ key, marked: true });
    }
  });

  it('runs as a non-root user on a read-only root filesystem', () => {
    expect(podSpec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  });

  describe('on a running gateway', () => {
    let gateway: HttpGatewayHandle;

    beforeAll(async () => {
      gateway = await startHttpGateway();
    });

    afterAll(() => gateway.close());

    it.each([
      ['startup', () => container.startupProbe],
      ['liveness', () => container.livenessProbe],
      ['readiness', () => container.readinessProbe],
    ])('the %s probe path answers 200', async (_name, probe: () => HttpProbe) => {
      const response = await fetch(gateway.baseUrl + probe().httpGet.path);
      expect(response.status).toBe(200);
    });

    it("the ServiceMonitor's path is the metrics endpoint", async () => {
      const response = await fetch(gateway.baseUrl + serviceMonitor.spec.endpoints[0].path);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('# TYPE');
    });
  });
});
