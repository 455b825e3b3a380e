/**
 * The shortest static bearer secret the gateway accepts (the admin and the
 * metrics token): 32 characters, a 128-bit random value in hex, so that no
 * caller can guess one by trying, since nothing throttles wrong guesses.
 */
export const MIN_BEARER_SECRET_CHARS = 32;

/** Why the secret of environment variable `name` is too weak, or undefined when it is unset or long enough. */
export function bearerSecretProblem(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = env[name];
  if (!value || value.length >= MIN_BEARER_SECRET_CHARS) return undefined;
  return `is ${value.length} characters long; it must be at least ${MIN_BEARER_SECRET_CHARS} (for example: openssl rand -hex 32)`;
}
