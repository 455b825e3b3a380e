import 'reflect-metadata';
import { ClassTransformOptions, Exclude, Expose, plainToInstance, Type } from 'class-transformer';
import { TransformOperationExecutor } from 'class-transformer/cjs/TransformOperationExecutor';
import { TransformationType } from 'class-transformer';
import { DtoClass, installLinearGetKeys, quadraticGetKeys } from './class-transformer-keys';

class Inner {
  @Expose({ name: 'inner_name' }) innerName!: string;
}

class Decorated {
  @Expose({ name: 'order_id' }) orderId!: string;
  @Exclude() secret!: string;
  @Expose({ since: 2 }) newer!: string;
  @Expose({ until: 2 }) older!: string;
  @Expose({ groups: ['admin'] }) adminOnly!: string;
  @Type(() => Inner) inner!: Inner;
  plain!: string;
}

@Exclude()
class ExcludeAll {
  @Expose() kept!: string;
}

const PLAIN = {
  order_id: 'ORD-1',
  secret: 's',
  newer: 'n',
  older: 'o',
  adminOnly: 'a',
  plain: 'p',
  _private: 'x',
  extra: 'e',
  inner: { inner_name: 'i', other: 1 },
  kept: 'k',
};

const OPTIONS: ClassTransformOptions[] = [
  {},
  { version: 1 },
  { version: 3 },
  { groups: ['admin'] },
  { excludePrefixes: ['_'] },
  { excludeExtraneousValues: true },
  { ignoreDecorators: true },
  { ignoreDecorators: true, excludeExtraneousValues: true },
  { strategy: 'excludeAll' },
];

type GetKeys = (target: DtoClass | undefined, object: object, isMap: boolean) => string[];

describe('class-transformer getKeys without quadratic duplicate removal', () => {
  beforeAll(() => installLinearGetKeys());

  it.each(OPTIONS.map((options) => [JSON.stringify(options), options]))(
    'gives the keys and order class-transformer gives, options %s',
    (_title, options) => {
      for (const type of [TransformationType.PLAIN_TO_CLASS, TransformationType.CLASS_TO_PLAIN]) {
        const executor = new TransformOperationExecutor(type, options) as unknown as {
          getKeys: GetKeys;
        };
        for (const target of [Decorated, ExcludeAll, Inner, undefined]) {
          for (const isMap of [false, true]) {
            expect(executor.getKeys(target, PLAIN, isMap)).toEqual(
              quadraticGetKeys.call(executor, target, PLAIN, isMap),
            );
          }
        }
      }
    },
  );

  it('makes the same instances as before', () => {
    const instance = plainToInstance(Decorated, PLAIN);
    expect(instance).toBeInstanceOf(Decorated);
    expect(instance.orderId).toBe('ORD-1');
    expect(instance.secret).toBeUndefined();
    expect(instance.inner).toBeInstanceOf(Inner);
    expect(instance.inner.innerName).toBe('i');
  });

  it('is the getKeys class-transformer runs once installed', () => {
    const executor = new TransformOperationExecutor(TransformationType.PLAIN_TO_CLASS, {});
    expect((executor as unknown as { getKeys: GetKeys }).getKeys).not.toBe(quadraticGetKeys);
  });

  it('copies 150,000 keys onto an instance', () => {
    const huge: Record<string, number> = {};
    for (let i = 0; i < 150_000; i++) huge[`k${i}`] = i;
    const instance = plainToInstance(Decorated, huge) as unknown as Record<string, number>;
    expect(Object.keys(instance).filter((key) => key.startsWith('k'))).toHaveLength(150_000);
    expect(instance.k149999).toBe(149_999);
  });
});
