import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META_OUTPUT_TRUNCATED } from './upstream-connection.constants';

/** What `_meta['owlclaw/outputTruncated']` reports about a cut result. */
export interface OutputTruncation {
  limitBytes: number;
  originalBytes: number;
  textBlocksCut: number;
  blocksDropped: number;
  structuredContentDropped: boolean;
}

type ContentBlock = CallToolResult['content'][number];

/**
 * Cuts a tool result to `budgets.max_tool_output_bytes`: text blocks keep their
 * head and tail around a marker, other blocks and structuredContent that do not
 * fit are dropped, and `_meta` says what was cut so a client never mistakes a
 * cut result for the whole one. Sizes are JSON bytes, text counted as UTF-8.
 */
export function truncateToolOutput(
  result: CallToolResult,
  limitBytes: number,
  size: ToolOutputSize = measureToolOutput(result),
): CallToolResult {
  const { contentBytes, structuredBytes } = size;
  const originalBytes = contentBytes + structuredBytes;
  if (originalBytes <= limitBytes) return result;

  const report: OutputTruncation = {
    limitBytes,
    originalBytes,
    textBlocksCut: 0,
    blocksDropped: 0,
    structuredContentDropped: false,
  };
  const cut: CallToolResult = { ...result };
  let remaining = limitBytes;
  if (result.structuredContent && contentBytes + structuredBytes > limitBytes) {
    delete cut.structuredContent;
    report.structuredContentDropped = true;
  } else {
    remaining -= structuredBytes;
  }
  cut.content = result.content.map((block) => {
    const size = jsonBytes(block);
    if (size <= remaining) {
      remaining -= size;
      return block;
    }
    const kept =
      block.type === 'text' ? cutText(block.text, remaining) : droppedMarker(block, size);
    if (block.type === 'text') report.textBlocksCut++;
    else report.blocksDropped++;
    remaining = Math.max(0, remaining - Buffer.byteLength(kept));
    return { type: 'text', text: kept };
  });
  cut._meta = { ...result._meta, [META_OUTPUT_TRUNCATED]: report };
  return cut;
}

/** JSON bytes of a result's content and structuredContent, measured once for metrics and cutting. */
export interface ToolOutputSize {
  contentBytes: number;
  structuredBytes: number;
}

export function measureToolOutput(result: CallToolResult): ToolOutputSize {
  return {
    contentBytes: jsonBytes(result.content),
    structuredBytes: result.structuredContent ? jsonBytes(result.structuredContent) : 0,
  };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** Head and tail of `text` around a marker, within `budget` bytes when the marker itself fits. */
function cutText(text: string, budget: number): string {
  const bytes = Buffer.from(text);
  const marker = (dropped: number): string =>
    `\n[... owlclaw: ${dropped} of ${bytes.length} bytes cut by max_tool_output_bytes ...]\n`;
  const room = Math.max(0, budget - Buffer.byteLength(marker(bytes.length)));
  const headEnd = charBoundary(bytes, Math.ceil(room / 2), -1);
  const tailStart = charBoundary(bytes, bytes.length - Math.floor(room / 2), 1);
  const head = bytes.subarray(0, headEnd).toString('utf8');
  const tail = bytes.subarray(Math.max(tailStart, headEnd)).toString('utf8');
  return head + marker(bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail)) + tail;
}

/** Moves `index` off a UTF-8 continuation byte (backwards or forwards) so no character is split. */
function charBoundary(bytes: Buffer, index: number, direction: -1 | 1): number {
  let at = Math.min(Math.max(index, 0), bytes.length);
  while (at > 0 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at += direction;
  return at;
}

function droppedMarker(block: ContentBlock, size: number): string {
  return `[owlclaw: a ${block.type} block of ${size} bytes was dropped by max_tool_output_bytes]`;
}
