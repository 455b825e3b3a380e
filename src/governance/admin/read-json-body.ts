import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { Request } from 'express';

/**
 * The JSON body of an admin request. The gateway has no global body parser
 * (the MCP routes read raw bytes), so the body is read here, after the admin
 * guard has run: nothing is parsed for a caller without the token.
 */
export async function readJsonBody(req: Request, limitBytes: number): Promise<unknown> {
  if (req.body !== undefined && !Buffer.isBuffer(req.body)) return req.body as unknown;
  const raw = Buffer.isBuffer(req.body) ? req.body : await readAll(req, limitBytes);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    throw new BadRequestException(
      `request body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

async function readAll(req: Request, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new PayloadTooLargeException(`body exceeds ${limitBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
