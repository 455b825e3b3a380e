import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { API_KEY_ENTRY } from './config.constants';
import { toMapOf } from './config-governance.schema';
import { Default, Mapping, Section } from './config-schema.decorators';
import { IsGlob } from './glob.validator';

/** Who a caller is: API keys, OAuth access tokens, or both (docs/auth.md). */

export const AUTH_MODES = ['none', 'api_key', 'oauth', 'oauth_or_api_key'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Asymmetric JWS algorithms only: `none` and the HMAC family (a shared secret) are never accepted. */
export const TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

export const SECRET_REF = /^(env:[A-Za-z_][A-Za-z0-9_]*|file:.+)?$/;

/** What one OAuth scope unlocks: globs over tool names, resource URIs and prompt names. */
export class ScopeGrantSchema {
  @Default([])
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  tools!: string[];

  @Default([])
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  resources!: string[];

  @Default([])
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  prompts!: string[];
}

/**
 * How one issuer's clients are named for governance, the budgets, the ledger
 * and the metrics (docs/auth.md, Several issuers).
 */
export class IssuerClientsSchema {
  /** Unmapped clients of this issuer are `<namespace>#<client_id>`; '' is the issuer URL (and bare ids when it is the only issuer). */
  @Default('')
  @IsString()
  namespace!: string;

  /** Token client id -> governance client name, taken as given (several issuers may name the same client). */
  @Mapping()
  @IsObject()
  @IsDefined()
  clients!: Record<string, string>;
}

/** RFC 7662 introspection, for access tokens that are not JWTs. */
export class IntrospectionSchema {
  @Default(false)
  @IsBoolean()
  enabled!: boolean;

  /** The authorization server to ask; '' is the first of `auth.oauth.issuers`. */
  @Default('')
  @IsString()
  issuer!: string;

  /** The gateway's own client at that authorization server. */
  @Default('')
  @IsString()
  client_id!: string;

  /** `env:NAME` or `file:/path`: the client secret is never written in the config itself. */
  @Default('')
  @Matches(SECRET_REF, { message: 'must be env:NAME or file:/path' })
  @IsString()
  client_secret_ref!: string;

  /** Answers are cached until the token expires; at most this many (oldest dropped first). */
  @Default(10_000)
  @Min(1)
  @Max(1_000_000)
  @IsInt()
  cache_max_entries!: number;
}

export class OAuthSchema {
  /** The canonical URI of this gateway's MCP endpoint; a token must name it in `aud` (RFC 8707). */
  @Default('')
  @IsString()
  resource!: string;

  /**
   * Accepted in `aud` besides `resource`, for identity providers that cannot
   * put a URL there (Entra ID v2 tokens name the API's application id).
   */
  @Default([])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  additional_audiences!: string[];

  /** Trusted authorization servers; each one's JWKS is found through its metadata. */
  @Default([])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  issuers!: string[];

  /** Per issuer (keyed by its URL, as in `issuers`): a namespace for its clients and explicit client names. */
  @Mapping()
  @ValidateNested({ each: true })
  @Transform(toMapOf(IssuerClientsSchema))
  @IsDefined()
  issuer_clients!: Map<string, IssuerClientsSchema>;

  /** The claim that names the client for quotas, visibility and the ledger; '' is client_id, then azp, then sub. */
  @Default('')
  @Matches(/^([A-Za-z0-9_.:/-]{1,64})?$/, { message: 'must be a claim name' })
  @IsString()
  client_id_claim!: string;

  @Default(['RS256', 'PS256', 'ES256', 'EdDSA'])
  @IsIn(TOKEN_ALGORITHMS, { each: true })
  @IsArray()
  algorithms!: string[];

  /** Leeway for exp, nbf and iat, for clocks that disagree a little. */
  @Default(30)
  @Min(0)
  @Max(300)
  @IsInt()
  clock_tolerance_seconds!: number;

  /** A token whose `exp` is further ahead than this (plus the leeway) is refused: it would outlast revocation. */
  @Default(86_400)
  @Min(60)
  @Max(2_592_000)
  @IsInt()
  max_token_lifetime_seconds!: number;

  /** Least time between two JWKS fetches caused by unknown `kid`s: a stream of forged kids costs one fetch per period. */
  @Default(30)
  @Min(0)
  @Max(3600)
  @IsInt()
  jwks_refresh_cooldown_seconds!: number;

  /** A cached JWKS older than this is fetched again. */
  @Default(600)
  @Min(1)
  @Max(86_400)
  @IsInt()
  jwks_max_age_seconds!: number;

  /** Every MCP request needs all of these scopes (403 insufficient_scope otherwise). */
  @Default([])
  @Matches(/^[\x21\x23-\x5B\x5D-\x7E]+$/, {
    each: true,
    message: 'each scope must be a scope token (RFC 6749)',
  })
  @IsArray()
  required_scopes!: string[];

  /** Scope -> what it unlocks; what no scope names stays visible as governance decides. */
  @Mapping()
  @ValidateNested({ each: true })
  @Transform(toMapOf(ScopeGrantSchema))
  @IsDefined()
  scopes!: Map<string, ScopeGrantSchema>;

  /** A token carrying this scope may use the admin API; '' lets only the admin token in. */
  @Default('')
  @Matches(/^([\x21\x23-\x5B\x5D-\x7E]+)?$/, { message: 'must be a scope token (RFC 6749)' })
  @IsString()
  admin_scope!: string;

  @Section(() => IntrospectionSchema)
  introspection!: IntrospectionSchema;
}

export class AuthSchema {
  /**
   * none: X-MCP-Client-ID or the peer address names the client; api_key: a
   * Bearer key is required; oauth: a Bearer access token from a trusted
   * issuer; oauth_or_api_key: either.
   */
  @Default('none')
  @IsIn(AUTH_MODES)
  mode!: AuthMode;

  /** `<client_id>:<sha256 hex of the key>` entries; keys are never stored in clear. */
  @Default([])
  @Matches(API_KEY_ENTRY, {
    each: true,
    message: 'each entry must be "<client_id>:<64 lowercase hex sha256 of the key>"',
  })
  @IsArray()
  api_keys!: string[];

  @Section(() => OAuthSchema)
  oauth!: OAuthSchema;
}
