import { Injectable } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { ResourceVisibility } from '../resources/resource-visibility';
import { SkillCatalog } from '../resources/skill-catalog';
import { SkillRecord } from '../resources/skill-record';

/**
 * The resource templates `resources/templates/list` announces, with the
 * variables each one has. Completion answers for exactly these.
 */
export const SKILL_TEMPLATE_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  'skill://{category}/{name}': ['category', 'name'],
  'skill://{category}/{name}/{+path}': ['category', 'name', 'path'],
};

/**
 * Candidate values for the variables of the skill templates, from the live
 * catalog and only among skills the client may see: `category` -> the
 * categories; `name` -> skill names (of `context.category` when given);
 * `path` -> the files of the skill named by `context.category` and `context.name`
 * that the client may see (a deny rule on a file leaves it out).
 */
@Injectable()
export class SkillTemplateCompleter {
  constructor(
    private readonly catalog: SkillCatalog,
    private readonly visibility: ResourceVisibility,
  ) {}

  /** -32602 for a template or a variable that is not served. */
  candidates(
    templateUri: string,
    variable: string,
    context: Record<string, string>,
    clientId: string,
  ): string[] {
    const variables = SKILL_TEMPLATE_VARIABLES[templateUri];
    if (!Object.hasOwn(SKILL_TEMPLATE_VARIABLES, templateUri) || !variables) {
      throw GatewayError.invalidParams(`Unknown resource template: ${templateUri}`, {
        uri: templateUri,
        templates: Object.keys(SKILL_TEMPLATE_VARIABLES),
      });
    }
    if (!variables.includes(variable)) {
      throw GatewayError.invalidParams(
        `Unknown argument "${variable}" of resource template ${templateUri}`,
        { uri: templateUri, argument: variable, arguments: [...variables] },
      );
    }
    const skills = this.catalog
      .list()
      .filter((skill) => this.visibility.isVisible(skill.uri, clientId));
    switch (variable) {
      case 'category':
        return sorted(skills.map((skill) => skill.category));
      case 'name':
        return sorted(
          skills
            .filter(
              (skill) => context.category === undefined || skill.category === context.category,
            )
            .map((skill) => skill.name),
        );
      default:
        return this.filesOf(skills, context, clientId);
    }
  }

  private filesOf(skills: SkillRecord[], context: Record<string, string>, clientId: string) {
    const skill = skills.find(
      (candidate) => candidate.category === context.category && candidate.name === context.name,
    );
    return skill ? this.visibility.visibleFiles(skill, clientId).map((file) => file.relPath) : [];
  }
}

function sorted(values: string[]): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}
