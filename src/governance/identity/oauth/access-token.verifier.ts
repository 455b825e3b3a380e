import { Inject, Injectable } from '@nestjs/common';
import { decodeJwt, errors, jwtVerify } from 'jose';
import { GATEWAY_CONFIG } from '../../../config/config.constants';
import { GatewayConfig, OAuthConfig } from '../../../config/gateway-config';
import { AuthorizationServerUnavailable } from './bounded-fetch';
import { IssuerKeySets } from './issuer-key-sets';
import { OAUTH_LIMITS } from './oauth.limits';
import { OAuthClientNames } from './oauth-client-names';
import { identityFromClaims } from './token-claims';
import { TokenIntrospection } from './token-introspection';
import { TokenRefused, VerifiedToken } from './verified-token';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Validates Bearer access tokens the way the MCP authorization chapter asks
 * of a protected resource: a JWT must be signed by a key its configured
 * issuer publishes, with an allowed algorithm, be current (exp/nbf with the
 * configured leeway) and name this gateway's resource in `aud`, whatever
 * else is right. Other tokens go to introspection when it is on.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly config: OAuthConfig;
  private readonly issuers: IssuerKeySets;
  private readonly introspection?: TokenIntrospection;
  private readonly names: OAuthClientNames;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.config = config.auth.oauth;
    this.names = new OAuthClientNames(config.auth);
    this.issuers = new IssuerKeySets(this.config);
    if (this.config.introspection.enabled) {
      this.introspection = new TokenIntrospection(this.config, this.issuers);
    }
  }

  /** The token's identity, its client named for governance (OAuthClientNames); throws TokenRefused. */
  async verify(token: string): Promise<VerifiedToken> {
    if (token.length > OAUTH_LIMITS.maxTokenChars) {
      throw new TokenRefused(`the token is longer than ${OAUTH_LIMITS.maxTokenChars} characters`);
    }
    try {
      const verified = await this.verifyToken(token);
      return { ...verified, clientId: this.names.nameOf(verified.issuer, verified.clientId) };
    } catch (err) {
      throw refusalFor(err);
    }
  }

  private async verifyToken(token: string): Promise<VerifiedToken> {
    if (JWT_SHAPE.test(token)) return this.verifyJwt(token);
    if (this.introspection) return this.introspection.verify(token);
    throw new TokenRefused('the token is not a JWT and token introspection is off');
  }

  private async verifyJwt(token: string): Promise<VerifiedToken> {
    const issuer = decodeJwt(token).iss;
    if (typeof issuer !== 'string' || !this.issuers.isTrusted(issuer)) {
      throw new TokenRefused(
        issuer === undefined
          ? 'the token names no issuer (iss)'
          : 'the token is from an issuer this gateway does not trust',
      );
    }
    const { payload } = await jwtVerify(token, await this.issuers.keys(issuer), {
      issuer,
      audience: [this.config.resource, ...this.config.additional_audiences],
      algorithms: this.config.algorithms,
      clockTolerance: this.config.clock_tolerance_seconds,
      requiredClaims: ['exp', 'aud'],
    });
    return identityFromClaims(payload, issuer, this.config);
  }
}

/** What the client is told for each way a token fails; never the token's own text. */
function refusalFor(err: unknown): TokenRefused {
  if (err instanceof TokenRefused) return err;
  if (err instanceof AuthorizationServerUnavailable || err instanceof errors.JWKSTimeout) {
    return new TokenRefused(
      `the authorization server cannot be reached to validate the token (${err.message})`,
      true,
    );
  }
  if (err instanceof errors.JWTExpired) return new TokenRefused('the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    // Without maxTokenAge jose only rejects iat for its type; its bounds are checked in token-claims.
    if (err.reason === 'invalid') {
      return new TokenRefused(`the token's ${err.claim} claim is not a number of seconds`);
    }
    if (err.claim === 'nbf') return new TokenRefused('the token is not valid yet (nbf)');
    if (err.claim === 'aud') {
      return new TokenRefused(
        'the token is not for this resource (its aud does not name this gateway)',
      );
    }
    return new TokenRefused(`the token's ${err.claim} claim is not acceptable (${err.reason})`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed)
    return new TokenRefused('the token is signed with an algorithm this gateway does not accept');
  if (err instanceof errors.JWKSNoMatchingKey)
    return new TokenRefused('the token is signed by a key its issuer does not publish');
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new TokenRefused('the token signature does not verify');
  if (err instanceof errors.JWKSInvalid) {
    return new TokenRefused(`the issuer's key set cannot be used (${err.message})`, true);
  }
  if (err instanceof errors.JOSEError) return new TokenRefused('the token is malformed');
  throw err;
}
