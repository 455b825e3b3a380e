import { PassThrough } from 'node:stream';
import { MAX_STDERR_LINE_CHARS } from './upstream-connection.constants';
import { forwardStderrLines } from './upstream-stderr.lines';

describe('forwardStderrLines', () => {
  it('logs whole lines across chunks and cuts a line without end to the bound', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    forwardStderrLines(stream, (line) => lines.push(line));
    stream.write('starting\nhal');
    stream.write('f a line\n');
    stream.write('z'.repeat(MAX_STDERR_LINE_CHARS * 3));
    stream.end('z\nlast');
    await new Promise((resolve) => stream.on('end', resolve));
    expect(lines).toEqual([
      'starting',
      'half a line',
      `${'z'.repeat(MAX_STDERR_LINE_CHARS)} [cut]`,
      'last',
    ]);
  });
});
