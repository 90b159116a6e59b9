/**
 * `vellum generate <generator> <name> [flags]`: the files `strapi generate` writes (its plop
 * generators, `@strapi/generators` 5.54), from flags instead of prompts, so that a script can run
 * it: `api`, `content-type`, `controller`, `service`, `policy`, `middleware`. TypeScript when the
 * project has a tsconfig.json, as Strapi chooses. An existing file is never overwritten.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ValidationError } from '../../core/errors.js';
import { SCALAR_TYPES } from '../../core/schema/model.js';
import type { CliIo } from './io.js';
import { coreFile, newComponentFile, type Language } from '../../features/content-type-builder/index.js';

export const GENERATE_USAGE = `  vellum generate api <name> | controller|service <name> --api <api> | policy|middleware <name> [--api <api>]
  vellum generate content-type <singularName> [--plural <name>] [--display-name <text>] [--kind collectionType|singleType]
                  [--api <api>] [--attributes title:string,body:richtext,kind:enumeration:a|b] [--no-bootstrap-api]
  vellum generate component <category>.<name> [--display-name <text>] [--icon <name>] [--attributes ...]`;

const NAME = /^[a-z][a-z0-9-]*$/;

const exportOf = (language: Language, value: string) =>
  language === 'ts' ? `export default ${value};\n` : `module.exports = ${value};\n`;
const strict = (language: Language) => (language === 'ts' ? '' : "'use strict';\n\n");

const controllerFile = (id: string, language: Language) =>
  `${strict(language)}/**\n * A set of functions called "actions" for \`${id}\`\n */\n\n${exportOf(
    language,
    `{\n  // exampleAction: async (ctx, next) => {\n  //   try {\n  //     ctx.body = 'ok';\n  //   } catch (err) {\n  //     ctx.body = err;\n  //   }\n  // }\n}`,
  )}`;

const serviceFile = (id: string, language: Language) =>
  `${strict(language)}/**\n * ${id} service\n */\n\n${exportOf(language, '() => ({})')}`;

const routesFile = (id: string, language: Language) =>
  exportOf(
    language,
    `{\n  routes: [\n    // {\n    //  method: 'GET',\n    //  path: '/${id}',\n    //  handler: '${id}.exampleAction',\n    //  config: {\n    //    policies: [],\n    //    middlewares: [],\n    //  },\n    // },\n  ],\n}`,
  );

const policyFile = (id: string, language: Language) =>
  `${strict(language)}/**\n * ${language === 'ts' ? id : `\`${id}\``} policy\n */\n\n${exportOf(
    language,
    `(policyContext, config, { strapi }) => {\n    // Add your own logic here.\n    strapi.log.info('In ${id} policy.');\n\n    const canDoSomething = true;\n\n    if (canDoSomething) {\n      return true;\n    }\n\n    return false;\n}`,
  )}`;

const middlewareFile = (id: string, language: Language) =>
  `${strict(language)}/**\n * \`${id}\` middleware\n */\n\n${language === 'ts' ? "import type { Core } from '@strapi/strapi';\n\n" : ''}${exportOf(
    language,
    `(config, { strapi }${language === 'ts' ? ': { strapi: Core.Strapi }' : ''}) => {\n  // Add your own logic here.\n  return async (ctx, next) => {\n    strapi.log.info('In ${id} middleware.');\n\n    await next();\n  };\n}`,
  )}`;

/** What Strapi's content-type prompt offers: every scalar type, and media. */
const ATTRIBUTE_TYPES = new Set<string>([...SCALAR_TYPES, 'media']);

/** `title:string,kind:enumeration:a|b,cover:media` as Strapi's prompts would record them. */
function parseAttributes(text: string | undefined): Record<string, Record<string, unknown>> {
  const attributes: Record<string, Record<string, unknown>> = {};
  for (const item of (text ?? '').split(',').filter(Boolean)) {
    const [name, type, values] = item.split(':').map((part) => part.trim());
    if (!name || !type || !ATTRIBUTE_TYPES.has(type))
      throw new ValidationError(
        `--attributes: "${item}" is not name:type (types: ${[...ATTRIBUTE_TYPES].join(', ')}; enumeration:a|b)`,
      );
    const attribute: Record<string, unknown> = { type };
    if (type === 'enumeration') {
      if (!values) throw new ValidationError(`--attributes: ${name} needs its values (${name}:enumeration:a|b)`);
      attribute.enum = values.split('|').map((value) => value.trim());
    }
    if (type === 'media')
      Object.assign(attribute, { allowedTypes: ['images', 'files', 'videos', 'audios'], multiple: false });
    attributes[name] = attribute;
  }
  return attributes;
}

/** A name as Strapi's generators require it (kebab case). */
function checked(name: string | undefined, what: string): string {
  if (!name || !NAME.test(name))
    throw new ValidationError(
      `${what} must be in kebab case (lower-case letters, digits and dashes): ${name ?? '(none)'}`,
    );
  return name;
}

export async function runGenerateCommand(
  argv: string[],
  project: (named: string | undefined) => string,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    options: {
      api: { type: 'string' },
      plural: { type: 'string' },
      'display-name': { type: 'string' },
      kind: { type: 'string' },
      attributes: { type: 'string' },
      'no-bootstrap-api': { type: 'boolean' },
      icon: { type: 'string' },
      project: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [generator, rawName] = positionals;
  const projectDir = project(values.project);
  const language: Language = existsSync(join(projectDir, 'tsconfig.json')) ? 'ts' : 'js';
  const written: string[] = [];
  const files: [string, string][] = [];
  const src = (...parts: string[]) => join(projectDir, 'src', ...parts);
  const file = (path: string, text: string) => files.push([`${path}.${language}`, text]);

  switch (generator) {
    case 'api': {
      const name = checked(rawName, 'The API name');
      file(src('api', name, 'controllers', name), controllerFile(name, language));
      file(src('api', name, 'services', name), serviceFile(name, language));
      file(src('api', name, 'routes', name), routesFile(name, language));
      break;
    }
    case 'controller':
    case 'service': {
      const name = checked(rawName, `The ${generator} name`);
      const api = checked(values.api, '--api');
      file(
        src('api', api, `${generator}s`, name),
        generator === 'controller' ? controllerFile(name, language) : serviceFile(name, language),
      );
      break;
    }
    case 'policy':
    case 'middleware': {
      const name = checked(rawName, `The ${generator} name`);
      const folder = generator === 'policy' ? 'policies' : 'middlewares';
      const where = values.api ? src('api', checked(values.api, '--api'), folder, name) : src(folder, name);
      file(where, generator === 'policy' ? policyFile(name, language) : middlewareFile(name, language));
      break;
    }
    case 'component': {
      // `<category>.<name>`: the uid the builder gives a component of that category and name.
      const [category, name, ...rest] = (rawName ?? '').split('.');
      if (!category || !name || rest.length || !/^[a-z][a-z0-9-]*$/.test(category))
        throw new ValidationError(
          `The component is named <category>.<name> in kebab case (shared.quote): ${rawName ?? '(none)'}`,
        );
      checked(name, 'The component name');
      const displayName =
        values['display-name'] ??
        name.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);
      const made = newComponentFile(projectDir, {
        category,
        displayName,
        icon: values.icon,
        attributes: parseAttributes(values.attributes),
      });
      if (made.uid !== `${category}.${name}`)
        throw new ValidationError(
          `--display-name "${displayName}" makes the component ${made.uid}, not ${category}.${name}`,
        );
      files.push([join(projectDir, made.path), made.text]);
      break;
    }
    case 'content-type': {
      const singularName = checked(rawName, 'The singular name');
      const pluralName = checked(values.plural ?? `${singularName}s`, '--plural');
      if (pluralName === singularName) throw new ValidationError('--plural must differ from the singular name');
      const kind = values.kind ?? 'collectionType';
      if (kind !== 'collectionType' && kind !== 'singleType')
        throw new ValidationError('--kind is collectionType or singleType');
      const api = values.api ? checked(values.api, '--api') : singularName;
      const displayName =
        values['display-name'] ??
        singularName.replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);
      const attributes = parseAttributes(values.attributes);
      const schema = {
        kind,
        collectionName: pluralName.replace(/-/g, '_'),
        info: { singularName, pluralName, displayName },
        options: { comment: '' },
        attributes,
      };
      // Strapi's template (a first empty line), rewritten by JSON.stringify once attributes are added.
      const text =
        Object.keys(attributes).length > 0 ? JSON.stringify(schema, null, 2) : `\n${JSON.stringify(schema, null, 2)}\n`;
      files.push([src('api', api, 'content-types', singularName, 'schema.json'), text]);
      if (!values['no-bootstrap-api']) {
        const uid = `api::${api}.${singularName}`;
        // Strapi's comment names the new API (its `id` answer); into an existing API it has none.
        const id = existsSync(src('api', api)) ? '' : api;
        file(src('api', api, 'controllers', singularName), coreFile('controller', id, uid, language));
        file(src('api', api, 'services', singularName), coreFile('service', id, uid, language));
        file(src('api', api, 'routes', singularName), coreFile('router', id, uid, language));
      }
      break;
    }
    default:
      io.err(
        `Error: name a generator (api, content-type, component, controller, service, policy, middleware).\n${GENERATE_USAGE}`,
      );
      return 1;
  }
  const taken = files.filter(([path]) => existsSync(path)).map(([path]) => relative(projectDir, path));
  if (taken.length)
    throw new ValidationError(`${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''}: nothing was written`);
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(relative(projectDir, path));
  }
  for (const path of written) io.out(`Created ${path}`);
  return 0;
}
