import { bearerSecretProblem } from '../common/bearer-secret.policy';
import { BEARER_SECRET_ENV_VARS } from './config-env.reader';
import { Problem } from './config-problem';

/** The admin and metrics tokens, checked with the rest of the configuration so a weak one stops the start naming its variable. */
export function secretConfigProblems(env: NodeJS.ProcessEnv): Problem[] {
  return BEARER_SECRET_ENV_VARS.flatMap((name) => {
    const message = bearerSecretProblem(name, env);
    return message ? [{ subject: name, message, origin: `env ${name}` }] : [];
  });
}
