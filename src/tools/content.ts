/**
 * Content blocks a handler may return (MCP CallToolResult content). Helpers
 * keep handlers from spelling the wire format by hand.
 */
export interface TextContent {
  type: 'text';
  text: string;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
}
export interface EmbeddedResource {
  type: 'resource';
  resource:
    | { uri: string; mimeType?: string; text: string }
    | { uri: string; mimeType?: string; blob: string };
}
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export type ContentBlock =
  TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

const base64 = (data: Buffer | string) =>
  typeof data === 'string' ? data : data.toString('base64');

export const text = (value: string): TextContent => ({ type: 'text', text: value });
export const image = (data: Buffer | string, mimeType: string): ImageContent => ({
  type: 'image',
  data: base64(data),
  mimeType,
});
export const audio = (data: Buffer | string, mimeType: string): AudioContent => ({
  type: 'audio',
  data: base64(data),
  mimeType,
});
export const embeddedText = (
  uri: string,
  body: string,
  mimeType = 'text/plain',
): EmbeddedResource => ({
  type: 'resource',
  resource: { uri, mimeType, text: body },
});
export const embeddedBlob = (
  uri: string,
  data: Buffer | string,
  mimeType: string,
): EmbeddedResource => ({
  type: 'resource',
  resource: { uri, mimeType, blob: base64(data) },
});
export const resourceLink = (link: Omit<ResourceLink, 'type'>): ResourceLink => ({
  type: 'resource_link',
  ...link,
});

/** A result a handler returns as is: content blocks, optionally flagged as a tool-level error. */
export function toolResult(
  content: ContentBlock[],
  options: Omit<ToolResult, 'content'> = {},
): ToolResult {
  return { content, ...options };
}

/** True when a handler returned a ready CallToolResult rather than a plain value. */
export function isToolResult(value: unknown): value is ToolResult {
  return looksLikeToolResult(value) && value.content.every(isContentBlock);
}

/** Shaped like a CallToolResult (content blocks with known types), whether or not each block is complete. */
export function looksLikeToolResult(value: unknown): value is { content: unknown[] } {
  if (typeof value !== 'object' || value === null || !('content' in value)) return false;
  const { content } = value;
  return (
    Array.isArray(content) &&
    content.every((block: unknown) => {
      const type = (block as { type?: unknown } | null)?.type;
      return typeof type === 'string' && CONTENT_TYPES.has(type);
    })
  );
}

const isString = (value: unknown): value is string => typeof value === 'string';
/** Standard base64 (with padding), as the MCP schema requires of binary data. */
const isBase64 = (value: unknown): boolean =>
  isString(value) && value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);

/** Each block carries the fields the MCP schema requires for its type. */
function isContentBlock(block: unknown): boolean {
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return isString(b.text);
    case 'image':
    case 'audio':
      return isBase64(b.data) && isString(b.mimeType);
    case 'resource': {
      const resource = b.resource as Record<string, unknown> | undefined;
      return (
        !!resource && isString(resource.uri) && (isString(resource.text) || isString(resource.blob))
      );
    }
    case 'resource_link':
      return isString(b.uri) && isString(b.name);
    default:
      return false;
  }
}
