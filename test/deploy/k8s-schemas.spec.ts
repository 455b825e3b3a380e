import type { Manifest } from './k8s-manifest.types';
import { readManifests, readYaml } from './k8s-manifests';
import { validateAgainstSchema } from './k8s-schema.validators';

/** Every manifest of deploy/k8s against the schema of its apiVersion and kind. */
describe('deploy/k8s against the Kubernetes schemas', () => {
  it.each(readManifests().map((manifest) => [manifest.file, manifest] as const))(
    '%s is valid',
    (_file, manifest) => {
      expect(() => validateAgainstSchema(manifest)).not.toThrow();
    },
  );

  it('a wrongly typed field is refused, naming it', () => {
    const deployment = {
      file: 'deployment.yaml',
      ...(readYaml('deployment.yaml') as { spec: object }),
    } as Manifest & { spec: { replicas: unknown } };
    deployment.spec.replicas = 'two';
    expect(() => validateAgainstSchema(deployment)).toThrow(/spec\/replicas must be integer/);
  });
});
