import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { readSecretFile } from '../../upstreams/secret-file.reader';

const KEY = 'mrtr.state_secret_ref';

/**
 * The HMAC key of requestState from `mrtr.state_secret_ref`, or, when unset,
 * a random key for this process only: then a retry landing on another
 * replica (or after a restart) is refused as tampered, which the log says once.
 */
export function requestStateSecret(ref: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (ref === '') {
    new Logger('InputRounds').log({
      msg: `${KEY} is not set: requestState is signed with a random per-process key, so every round of a request must reach this replica`,
    });
    return randomBytes(32);
  }
  if (ref.startsWith('env:')) {
    const value = env[ref.slice(4)];
    if (!value) throw new Error(`${KEY}: ${ref.slice(4)} is not set or empty`);
    return Buffer.from(value, 'utf8');
  }
  const read = readSecretFile(ref.slice(5));
  if (!read.ok) throw new Error(`${KEY}: ${read.problem}`);
  return Buffer.from(read.secret, 'utf8');
}
