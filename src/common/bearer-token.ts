import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerSecretProblem } from './bearer-secret.policy';

const BEARER = /^Bearer (.+)$/;

/**
 * A secret presented as `Authorization: Bearer <token>`, held only as its
 * SHA-256 and compared in constant time (hashing first gives the equal-length
 * buffers timingSafeEqual requires).
 */
export class BearerToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  /**
   * The token of environment variable `name`, or undefined when it is unset or
   * empty; throws when it is shorter than MIN_BEARER_SECRET_CHARS, so that a
   * guessable token stops the start-up (the config loader says so first).
   */
  static fromEnv(name: string, env: NodeJS.ProcessEnv = process.env): BearerToken | undefined {
    const problem = bearerSecretProblem(name, env);
    if (problem) throw new Error(`${name} ${problem}`);
    const token = env[name];
    return token ? new BearerToken(token) : undefined;
  }

  /** True when the Authorization header carries this token. */
  matches(authorization: string | undefined): boolean {
    const match = BEARER.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
