import { canonicalHostName, isLoopbackBind, loopbackHostNames } from './loopback-bind';

describe('loopback binds', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.2',
    '127.255.0.9',
    'localhost',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.2',
  ])('%s is a loopback bind', (host) => expect(isLoopbackBind(host)).toBe(true));

  it.each(['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::2', 'gateway.internal', ''])(
    '%s is not',
    (host) => expect(isLoopbackBind(host)).toBe(false),
  );

  it('answers to the local names and the bound address as a Host header writes it', () => {
    expect([...loopbackHostNames('127.0.0.2')].sort()).toEqual(
      ['127.0.0.1', '127.0.0.2', '[::1]', 'localhost'].sort(),
    );
    expect(loopbackHostNames('0:0:0:0:0:0:0:1').has('[::1]')).toBe(true);
  });

  it('spells host names as a browser does, and refuses what is more than a name', () => {
    expect(canonicalHostName('[0:0:0:0:0:0:0:1]')).toBe('[::1]');
    expect(canonicalHostName('127.1')).toBe('127.0.0.1');
    expect(canonicalHostName('LocalHost')).toBe('localhost');
    expect(canonicalHostName('localhost/x')).toBeUndefined();
    expect(canonicalHostName('user@localhost')).toBeUndefined();
    expect(canonicalHostName('a b')).toBeUndefined();
  });
});
