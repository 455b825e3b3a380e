import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { SECRET_REF } from './config-auth.schema';
import { Default } from './config-schema.decorators';

/** Multi round-trip requests (2026-07-28 input-required results): how requestState is signed. */
export class MrtrSchema {
  /**
   * `env:NAME` or `file:/path` of the HMAC-SHA256 key for requestState. Empty: a random key
   * per process, so every replica that may serve a retry needs the same key set here.
   */
  @Default('')
  @Matches(SECRET_REF, { message: 'must be env:NAME or file:/path' })
  @IsString()
  state_secret_ref!: string;

  /** Seconds a requestState is accepted after the round that issued it. */
  @Default(600)
  @Min(1)
  @Max(86_400)
  @IsInt()
  state_ttl_seconds!: number;
}
