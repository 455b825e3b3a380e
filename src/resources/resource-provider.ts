import { JsonRpcParams } from '../json-rpc/json-rpc.types';

/**
 * Resources as MCP lists and reads them, whatever serves them. The skills
 * catalog is the built-in provider (`skill://`); capability modules add their
 * own schemes by registering a ResourceProvider with ResourceProviders.
 */

/** One direct resource, as `resources/list` shows it. */
export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
  /** `owlclaw/category` and `owlclaw/tags` here make the entry match resources/list filters. */
  _meta?: Record<string, unknown>;
}

/** One resource template, as `resources/templates/list` shows it. */
export interface ResourceTemplateEntry {
  /** An RFC 6570 URI template, e.g. `test://template/{id}/data`. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/** What `resources/read` answers. */
export interface ResourceReadResult {
  contents: ResourceContents[];
  _meta?: Record<string, unknown>;
}

export interface ResourceReadRequest {
  /** The URI exactly as the client sent it. */
  uri: string;
  /** Every param of the request, extension params included (the skills' `range`, `ifNoneMatch`). */
  params: JsonRpcParams;
  clientId: string;
  /** Fires when the client cancels or the session ends. */
  signal: AbortSignal;
}

/** A URI a provider serves, found but not read yet. */
export interface ResolvedResource {
  /** What governance visibility rules are judged on (a skill file: its own URI, seen with its skill). */
  readonly visibilityUri: string;
  read(request: ResourceReadRequest): ResourceReadResult | Promise<ResourceReadResult>;
}

export interface ResourceProvider {
  /** Names the provider in start-up errors, e.g. `skills`. */
  readonly name: string;
  /** The lower-case URI schemes it serves (`skill` for `skill://...`); one provider per scheme. */
  readonly schemes: readonly string[];
  /**
   * Whether clients may subscribe to its resources. A provider that says yes
   * reports changes through ResourceProviders.resourceUpdated (or, like the
   * skills catalog, its own notifier); subscribing to one that says no is -32602.
   */
  readonly supportsSubscriptions: boolean;
  /** Direct resources, in a stable order (pages of resources/list are offsets into it). */
  list(): readonly ResourceEntry[];
  templates(): readonly ResourceTemplateEntry[];
  /**
   * The resource a URI of one of its schemes names. Throws a GatewayError:
   * -32602 for a URI it cannot parse, -32002 for one that names nothing.
   */
  resolve(uri: string): ResolvedResource;
}
