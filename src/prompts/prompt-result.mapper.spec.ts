import { GatewayError } from '../errors/gateway.error';
import { embeddedText, image, text } from '../tools/content';
import { assistantMessage, PromptMessage, PromptOutput, userMessage } from './prompt-message';
import { toPromptResult } from './prompt-result.mapper';

describe('toPromptResult', () => {
  const messages = [
    userMessage(text('hello')),
    assistantMessage(image('iVBORw0KGgo=', 'image/png')),
    userMessage(embeddedText('skill://a/b', '# b', 'text/markdown')),
  ];

  it('wraps a bare array with the declared description', () => {
    expect(toPromptResult('p', messages, 'declared')).toEqual({
      description: 'declared',
      messages,
    });
  });

  it('prefers the description the method returned', () => {
    expect(toPromptResult('p', { description: 'rendered', messages }, 'declared')).toEqual({
      description: 'rendered',
      messages,
    });
    expect(toPromptResult('p', { messages }, 'declared').description).toBe('declared');
  });

  it.each<[string, unknown, string]>([
    ['no messages', { description: 'x' }, 'returned neither an array of messages'],
    ['undefined', undefined, 'returned neither an array of messages'],
    ['a bad role', [{ role: 'system', content: text('x') }], '#0: role must be user or assistant'],
    [
      'two blocks',
      [userMessage(text('ok')), { role: 'user', content: [text('x')] }],
      '#1: content must be one content block',
    ],
    [
      'an unknown block',
      [{ role: 'user', content: { type: 'video', data: '' } }],
      '#0: unknown content type video',
    ],
    ['a non-object message', ['hi'], '#0: not an object'],
  ])('refuses %s as a bug of the prompt', (_what, output, problem) => {
    let thrown: unknown;
    try {
      toPromptResult('broken', output as PromptOutput, 'd');
    } catch (err) {
      thrown = err;
    }
    // A plain Error: the client sees an internal error with an incident id, not a -32602.
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(GatewayError);
    expect((thrown as Error).message).toContain('Prompt broken ');
    expect((thrown as Error).message).toContain(problem);
  });

  it('keeps messages as given (no copy needed for the wire)', () => {
    const given: PromptMessage[] = [userMessage(text('x'))];
    expect(toPromptResult('p', given, 'd').messages).toBe(given);
  });
});
