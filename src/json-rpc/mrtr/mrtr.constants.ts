/** The requests that may end with an input-required result (2026-07-28, basic/patterns/mrtr). */
export const MRTR_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

/** The request params MRTR adds; left out of the digest that ties a requestState to its request. */
export const INPUT_RESPONSES_PARAM = 'inputResponses';
export const REQUEST_STATE_PARAM = 'requestState';

/** HMAC domain separation: a requestState MAC is never valid as any other MAC of this key. */
export const REQUEST_STATE_MAC_LABEL = 'owlclaw.mrtr.requestState.v1\n';
