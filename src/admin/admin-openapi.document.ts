import { Injectable, INestApplication, Type } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost, ModulesContainer, Reflector } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { ADMIN_BEARER_SCHEME } from './admin.constants';
import { AdminControllerMarker } from './admin-controller.decorator';

/**
 * The OpenAPI document of the admin API, built on first request from the
 * running application's own route metadata. SwaggerModule.createDocument
 * wants the application object, which no provider can inject; it only reads
 * the module container, the application config and the HTTP adapter, and
 * those three are injectable, so they are handed over as a view of the app.
 */
@Injectable()
export class AdminOpenApiDocument {
  private document?: OpenAPIObject;

  constructor(
    private readonly modules: ModulesContainer,
    private readonly appConfig: ApplicationConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly reflector: Reflector,
  ) {}

  get(): OpenAPIObject {
    this.document ??= SwaggerModule.createDocument(this.appView(), this.base(), {
      include: this.adminModules(),
    });
    return this.document;
  }

  /** Every module that declares an @AdminController(), wherever it sits in the graph. */
  private adminModules(): Type[] {
    return [...this.modules.values()]
      .filter((module) =>
        [...module.controllers.values()].some(
          ({ metatype }) =>
            metatype !== null && this.reflector.get(AdminControllerMarker, metatype) === true,
        ),
      )
      .map((module) => module.metatype);
  }

  private base(): Omit<OpenAPIObject, 'paths'> {
    return new DocumentBuilder()
      .setTitle('OwlClaw MCP Gateway admin API')
      .setDescription(
        'Operator endpoints. Enabled only when MCP_SERVER_ADMIN_TOKEN is set; ' +
          'every request needs `Authorization: Bearer <token>`.',
      )
      .setVersion(GATEWAY_VERSION)
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'The value of MCP_SERVER_ADMIN_TOKEN' },
        ADMIN_BEARER_SCHEME,
      )
      .build();
  }

  private appView(): INestApplication {
    const view = {
      container: { getModules: () => this.modules },
      config: this.appConfig,
      getHttpAdapter: () => this.adapterHost.httpAdapter,
    };
    return view as unknown as INestApplication;
  }
}
