import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface PackageManifest {
  name: string;
  version: string;
}

/** package.json sits two levels above both src/lifecycle and dist/lifecycle. */
const manifest = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
) as PackageManifest;

export const GATEWAY_VERSION = manifest.version;
export const GATEWAY_PACKAGE_NAME = manifest.name;
