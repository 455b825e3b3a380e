import { ClassTransformOptions, TransformationType } from 'class-transformer';
import { defaultMetadataStorage as storage } from 'class-transformer/cjs/storage';
import { TransformOperationExecutor } from 'class-transformer/cjs/TransformOperationExecutor';

/** The class-transformer release whose getKeys this file mirrors. */
const MIRRORED_VERSION = '0.5.1';

/** A class as class-transformer's metadata storage keys it. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the storage's own key type
export type DtoClass = Function;

type GetKeys = (target: DtoClass | undefined, object: object, isMap: boolean) => string[];

interface ExecutorInternals {
  transformationType: TransformationType;
  options: ClassTransformOptions;
  checkVersion(since?: number, until?: number): boolean;
  checkGroups(groups?: string[]): boolean;
}

const prototype = TransformOperationExecutor.prototype as unknown as { getKeys: GetKeys };

/** class-transformer's own getKeys, kept for the parity spec. */
export const quadraticGetKeys: GetKeys = prototype.getKeys;

/**
 * class-transformer's getKeys (the keys plainToInstance copies onto an
 * instance), with its duplicate removal done by a Set: the original filters
 * with indexOf, which made argument validation quadratic in the key count
 * of any object in the arguments. Same keys, same order.
 */
function linearGetKeys(
  this: ExecutorInternals,
  target: DtoClass | undefined,
  object: object,
  isMap: boolean,
): string[] {
  let strategy = target ? storage.getStrategy(target) : 'none';
  if (strategy === 'none') strategy = this.options.strategy || 'exposeAll';
  let keys: string[] = [];
  if (strategy === 'exposeAll' || isMap) {
    keys =
      object instanceof Map ? Array.from(object.keys() as Iterable<string>) : Object.keys(object);
  }
  if (isMap) return keys;
  if (this.options.ignoreDecorators && this.options.excludeExtraneousValues && target) {
    keys = [
      ...storage.getExposedProperties(target, this.transformationType),
      ...storage.getExcludedProperties(target, this.transformationType),
    ];
  }
  if (!this.options.ignoreDecorators && target) {
    keys = decoratedKeys.call(this, target, keys);
  }
  const prefixes = this.options.excludePrefixes;
  if (prefixes && prefixes.length) {
    keys = keys.filter((key) =>
      prefixes.every((prefix) => key.substr(0, prefix.length) !== prefix),
    );
  }
  return [...new Set(keys)];
}

/** Exposed keys added, excluded ones removed, versions and groups applied (as the original does). */
function decoratedKeys(this: ExecutorInternals, target: DtoClass, own: string[]): string[] {
  let exposed = storage.getExposedProperties(target, this.transformationType);
  if (this.transformationType === TransformationType.PLAIN_TO_CLASS) {
    exposed = exposed.map((key) => storage.findExposeMetadata(target, key)?.options?.name || key);
  }
  let keys = this.options.excludeExtraneousValues ? exposed : own.concat(exposed);
  const excluded = storage.getExcludedProperties(target, this.transformationType);
  if (excluded.length > 0) {
    const excludedSet = new Set(excluded);
    keys = keys.filter((key) => !excludedSet.has(key));
  }
  if (this.options.version !== undefined) {
    keys = keys.filter((key) => {
      const options = storage.findExposeMetadata(target, key)?.options;
      return !options || this.checkVersion(options.since, options.until);
    });
  }
  if (this.options.groups && this.options.groups.length) {
    return keys.filter((key) => {
      const options = storage.findExposeMetadata(target, key)?.options;
      return !options || this.checkGroups(options.groups);
    });
  }
  return keys.filter((key) => {
    const groups = storage.findExposeMetadata(target, key)?.options?.groups;
    return !groups || !groups.length;
  });
}

/**
 * Puts linearGetKeys in place of class-transformer's own, once. Another
 * class-transformer release stops the start-up: its getKeys must be compared
 * with this mirror (and the parity spec rerun) before it is replaced.
 */
export function installLinearGetKeys(): void {
  if (prototype.getKeys === linearGetKeys) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { version } = require('class-transformer/package.json') as { version: string };
  if (version !== MIRRORED_VERSION) {
    throw new Error(
      `class-transformer ${version} is installed; src/tools/class-transformer-keys.ts mirrors ${MIRRORED_VERSION}'s getKeys: compare them and update the mirror`,
    );
  }
  prototype.getKeys = linearGetKeys;
}
