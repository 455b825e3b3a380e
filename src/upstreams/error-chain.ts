/** `message: cause: cause` of an error, read by shape because fetch errors come from another realm under test runners. */
export function errorChain(error: unknown): string {
  const messages: string[] = [];
  for (let at = error, depth = 0; depth < 4 && typeof at === 'object' && at !== null; depth++) {
    if ('message' in at) messages.push(withOAuthCode(at, String(at.message)));
    at = 'cause' in at ? at.cause : undefined;
  }
  return messages.join(': ');
}

/** An authorization server's own words ("client authentication failed") say little without its error code. */
function withOAuthCode(error: object, message: string): string {
  const code = 'errorCode' in error ? error.errorCode : undefined;
  return typeof code === 'string' && code !== '' ? `OAuth ${code}: ${message}` : message;
}
