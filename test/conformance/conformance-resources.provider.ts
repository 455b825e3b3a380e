import { Injectable, OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '../../src/errors/error-code';
import { GatewayError } from '../../src/errors/gateway.error';
import {
  ResolvedResource,
  ResourceEntry,
  ResourceProvider,
  ResourceReadResult,
  ResourceTemplateEntry,
} from '../../src/resources/resource-provider';
import { ResourceProviders } from '../../src/resources/resource-providers';
import {
  STATIC_BINARY,
  STATIC_TEXT,
  TEMPLATE_URI,
  TEST_PNG_BASE64,
  WATCHED_RESOURCE,
} from './conformance-fixture.constants';

const TEMPLATE = /^test:\/\/template\/([^/?#]+)\/data$/;

const STATIC: Record<string, ResourceReadResult> = {
  [STATIC_TEXT.uri]: { contents: [{ ...STATIC_TEXT }] },
  [STATIC_BINARY.uri]: { contents: [{ ...STATIC_BINARY, blob: TEST_PNG_BASE64 }] },
  [WATCHED_RESOURCE.uri]: { contents: [{ ...WATCHED_RESOURCE }] },
};

const ENTRIES: readonly ResourceEntry[] = [
  {
    uri: STATIC_TEXT.uri,
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource',
    mimeType: STATIC_TEXT.mimeType,
  },
  {
    uri: STATIC_BINARY.uri,
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (a PNG image)',
    mimeType: STATIC_BINARY.mimeType,
  },
  {
    uri: WATCHED_RESOURCE.uri,
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource clients may subscribe to',
    mimeType: WATCHED_RESOURCE.mimeType,
  },
];

const TEMPLATES: readonly ResourceTemplateEntry[] = [
  {
    uriTemplate: TEMPLATE_URI,
    name: 'template',
    title: 'Resource Template',
    description: 'Data for an id, substituted into the URI',
    mimeType: 'application/json',
  },
];

/**
 * The `test://` resources of the conformance suite, served through the
 * gateway's ResourceProviders like any capability module's resources (so
 * reads are governed and audited like skill reads).
 */
@Injectable()
export class ConformanceResourcesProvider implements ResourceProvider, OnModuleInit {
  readonly name = 'conformance';
  readonly schemes = ['test'];
  readonly supportsSubscriptions = true;

  constructor(private readonly providers: ResourceProviders) {}

  onModuleInit(): void {
    this.providers.register(this);
  }

  list(): readonly ResourceEntry[] {
    return ENTRIES;
  }

  templates(): readonly ResourceTemplateEntry[] {
    return TEMPLATES;
  }

  resolve(uri: string): ResolvedResource {
    const fixed = STATIC[uri];
    if (fixed) return { visibilityUri: uri, read: () => structuredClone(fixed) };
    const id = TEMPLATE.exec(uri)?.[1];
    if (id !== undefined) {
      const value = decodeURIComponent(id);
      const body = { id: value, templateTest: true, data: `Data for ID: ${value}` };
      return {
        visibilityUri: uri,
        read: () => ({
          contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }],
        }),
      };
    }
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {
      data: { uri },
    });
  }
}
